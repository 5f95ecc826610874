import type { StepType, StepTypeDescription } from './step-type';
import { resolveParams } from '../runners/columns';
import type { SourceRunner } from '../runners/types';
import { finished, idParam, quotedName, writeSelect } from '../sources/source-dataset';

const description: StepTypeDescription = {
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

const runner: SourceRunner = {
  kind: 'source',
  outputColumns: () => [],
  async run(ctx, stored) {
    const params = resolveParams(description, stored, ctx.vars);
    const datasetId = idParam(params, 'dataset', 'server.params.dataset');
    const input = await ctx.dataset(datasetId);
    ctx.progress({ done: 0, total: input.rowCount, phase: 'reading' });
    // SELECT * keeps `_id`: the records keep their identity from the dataset they come from.
    const meta = await writeSelect(ctx, `dataset ${quotedName(input.name)}`, ([table]) => `SELECT * FROM ${table}`, [input]);
    return finished(ctx, meta, { key: 'server.runLog.source.dataset', values: { name: quotedName(input.name) } });
  },
};

export const importDataset: StepType = {
  description,
  runner,
  cacheable: true,
  billing: 'run',
  outsideCalls: 'none',
  // The chosen dataset's records, as counted when it was written.
  estimateOutputRecords: async (params, lookup) => (typeof params.dataset === 'string' ? lookup.datasetRowCount(params.dataset) : null),
};
