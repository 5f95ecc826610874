import type { StepTypeDescription } from './step-type';

export const importDataset: StepTypeDescription = {
  id: 'import_dataset',
  name: 'Use dataset',
  description:
    'Start from one of your existing datasets, for example the saved result of another workflow run. Reads the table as it is, with all its rows and columns.',
  category: 'source',
  tags: ['import', 'dataset', 'source'],
  params: [{ name: 'dataset', type: 'dataset', label: 'Dataset', help: 'The dataset to start from, chosen from your datasets.', required: true }],
  inputs: { min: 0, max: 0 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '使用数据集',
      description: '从你已有的某个数据集开始，例如另一个工作流运行后保存的结果。按原样读取整张表的所有行和列。',
      params: { dataset: { label: '数据集', help: '作为起点的数据集，从你的数据集中选择。' } },
      cost_note: '免费。',
    },
  },
};
