import type { StepTypeDescription } from './step-type';

export const renameColumns: StepTypeDescription = {
  id: 'rename_columns',
  name: 'Rename columns',
  description: 'Give columns (fields) new names, e.g. turn "cust_nm" into "customer_name". Columns you do not mention keep their names.',
  category: 'transform',
  tags: ['columns', 'rename'],
  params: [
    {
      name: 'mapping',
      type: 'json',
      label: 'New names',
      help: 'A JSON object from old name to new name, e.g. {"cust_nm": "customer_name", "amt": "amount"}.',
      required: true,
      default: {},
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '重命名列',
      description: '给列（字段）改名，例如把 "cust_nm" 改成 "customer_name"。未提到的列保持原名。',
      params: {
        mapping: { label: '新名称', help: '从旧列名到新列名的 JSON 对象，例如 {"cust_nm": "customer_name", "amt": "amount"}。' },
      },
      cost_note: '免费。',
    },
  },
};
