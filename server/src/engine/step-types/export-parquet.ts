import { saveFolderParam, saveFolderTextsZh, recordIdColumnParam, recordIdColumnTextsZh } from './export-params';
import type { StepType, StepTypeDescription } from './step-type';
import type { ParamValues } from '../params';
import { resolveParams } from '../runners/columns';
import type { Column, SinkRunner, Vars } from '../runners/types';
import { one, enumValue, booleanValue, optionalText, fileName } from '../sinks/sink-params';
import { copyToSavedFile, selectList } from '../sinks/sink-output';

const description: StepTypeDescription = {
  id: 'export_parquet',
  name: 'Export Parquet',
  description:
    'Save (write) the table as a Parquet file in your files: a compact, typed columnar format for data tools such as DuckDB, pandas, Spark or BigQuery. Best for large tables.',
  category: 'output',
  tags: ['export', 'parquet', 'file', 'output'],
  params: [
    {
      name: 'file_name',
      type: 'template',
      label: 'File name',
      help: 'Name of the file to write, e.g. orders-{{var.month}}.parquet. If the folder already holds a file of that name, the new one gets a numbered name, e.g. export (1).csv; the old file is kept.',
      required: false,
      default: 'export.parquet',
      max_length: 255,
    },
    saveFolderParam,
    recordIdColumnParam,
    {
      name: 'compression',
      type: 'enum',
      label: 'Compression',
      help: 'zstd: small files. snappy: fastest to read and write. none: no compression.',
      required: false,
      default: 'zstd',
      options: ['zstd', 'snappy', 'gzip', 'none'],
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['file'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '导出 Parquet',
      description: '把表保存为你文件中的 Parquet 文件：一种紧凑、带类型的列式格式，适用于 DuckDB、pandas、Spark 或 BigQuery 等数据工具。最适合大表。',
      params: {
        file_name: {
          label: '文件名',
          help: '要写入的文件名，例如 orders-{{var.month}}.parquet。若文件夹中已有同名文件，新文件会使用带编号的名称，例如 export (1).csv，原文件保留。',
        },
        folder: saveFolderTextsZh,
        include_record_id: recordIdColumnTextsZh,
        compression: { label: '压缩方式', help: 'zstd：文件最小。snappy：读写最快。none：不压缩。' },
      },
      cost_note: '免费。',
    },
  },
};

const PARQUET_COMPRESSION = { zstd: 'zstd', snappy: 'snappy', gzip: 'gzip', none: 'uncompressed' } as const;

function parquetPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams(description, stored, vars);
  const compression = PARQUET_COMPRESSION[enumValue(params, 'compression', Object.keys(PARQUET_COMPRESSION) as (keyof typeof PARQUET_COMPRESSION)[])];
  const includeRecordId = booleanValue(params, 'include_record_id');
  const folderId = optionalText(params, 'folder');
  const name = vars ? fileName(params, vars, 'export.parquet') : null;
  return { columns, compression, includeRecordId, folderId, name };
}

const runner: SinkRunner = {
  kind: 'sink',
  streamsInput: true,
  outputColumns: (inputs, params, vars) => parquetPlan(inputs, params, vars).columns,
  run(ctx, inputs, params) {
    const plan = parquetPlan([inputs[0]?.columns ?? []], params, ctx.vars);
    const file = { name: plan.name!, folderId: plan.folderId, extension: 'parquet', includeRecordId: plan.includeRecordId };
    return copyToSavedFile(
      ctx,
      inputs[0],
      file,
      (columns, scan, target) => `COPY (SELECT ${selectList(columns)} FROM ${scan}) TO ${target} (FORMAT parquet, COMPRESSION ${plan.compression})`,
    );
  },
};

export const exportParquet: StepType = { description, runner, cacheable: false, billing: 'run', outsideCalls: 'none' };
