import type { StepType, StepTypeDescription } from './step-type';
import { ID_COLUMN, resolveParams } from '../runners/columns';
import type { SourceRunner } from '../runners/types';
import { checkAborted, finished } from '../sources/source-dataset';
import { tableColumns, tableRows, tableRowColumns } from '../sources/typed-table';

const description: StepTypeDescription = {
  id: 'table_input',
  name: 'Typed-in table',
  description:
    'Type a small table by hand: name its columns, give each a type (text, integer, number, true/false or date) and fill in up to 1,000 rows. Handy for lookup lists, test data and settings.',
  category: 'source',
  tags: ['table', 'manual', 'input', 'source'],
  params: [
    {
      name: 'columns',
      type: 'json',
      label: 'Columns',
      help: 'A list of up to 100 columns, each {"name": "city", "type": "text"}; types: text, integer, number, boolean, date (YYYY-MM-DD).',
      required: true,
      default: [{ name: 'name', type: 'text' }],
      fields: [
        { name: 'name', kind: 'text', label: 'Name', required: true },
        { name: 'type', kind: 'enum', label: 'Type', options: ['text', 'integer', 'number', 'boolean', 'date'], required: true },
      ],
    },
    {
      name: 'rows',
      type: 'json',
      label: 'Rows',
      help: 'Up to 1,000 rows, each a list of values in column order (["Paris", 3]) or an object by column name ({"name": "Paris"}). Empty or null: no value.',
      required: false,
      default: [],
    },
  ],
  inputs: { min: 0, max: 0 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '手动输入表格',
      description: '手动输入一张小表：为各列命名并指定类型（文本、整数、数字、真/假或日期），最多填写 1000 行。适合查找列表、测试数据和设置。',
      params: {
        columns: {
          label: '列',
          help: '最多 100 列的列表，每列形如 {"name": "city", "type": "text"}；类型：text、integer、number、boolean、date（YYYY-MM-DD）。',
          fields: { name: '列名', type: '类型' },
        },
        rows: {
          label: '行',
          help: '最多 1000 行，每行是按列顺序排列的值列表（["Paris", 3]），或按列名给出的对象（{"name": "Paris"}）。空或 null 表示没有值。',
        },
      },
      cost_note: '免费。',
    },
  },
};

const runner: SourceRunner = {
  kind: 'source',
  outputColumns(_inputs, stored) {
    const params = resolveParams(description, stored);
    const columns = tableColumns(params);
    tableRows(params, columns);
    return [ID_COLUMN, ...tableRowColumns(columns)];
  },
  async run(ctx, stored) {
    const params = resolveParams(description, stored, ctx.vars);
    const columns = tableColumns(params);
    const rows = tableRows(params, columns);
    const kept = ctx.sampleSize == null ? rows : rows.slice(0, Math.max(0, ctx.sampleSize));
    checkAborted(ctx);
    const meta = await ctx.datasets.write({
      ownerId: ctx.ownerId,
      name: ctx.output.name,
      datasetId: ctx.output.datasetId,
      stepRunId: ctx.stepRunId,
      source: { columns: tableRowColumns(columns), batches: [kept] },
    });
    return finished(ctx, meta, { key: 'server.runLog.source.typedTable' });
  },
};

export const tableInput: StepType = {
  description,
  runner,
  cacheable: true,
  billing: 'run',
  outsideCalls: 'none',
  // The typed-in rows are the records, known before running.
  estimateOutputRecords: async (params) => (Array.isArray(params.rows) ? params.rows.length : null),
};
