import type { StepType, StepTypeDescription } from './step-type';
import { resolveParams } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { SourceRunner } from '../runners/types';
import { enumOf, finished, idParam, quotedName } from '../sources/source-dataset';
import { copyReadOf, FILE_FORMATS, formatOf, readFileAs } from '../sources/file-formats';
import { deferredFileRecipe, sourceCopyKey } from '../sources/deferred-file';

const description: StepTypeDescription = {
  id: 'import_file',
  name: 'Import file',
  description:
    'Read one data file from your files into a table: CSV, TSV, JSON (a list of objects, or one object per line), JSON Lines, Excel (.xlsx) or Parquet. Column types (numbers, dates, true/false) are recognised from the values.',
  category: 'source',
  tags: ['import', 'file', 'csv', 'json', 'excel', 'xlsx', 'parquet', 'source'],
  params: [
    {
      name: 'file',
      type: 'file',
      label: 'File',
      help: 'The file to read, chosen from your files.',
      required: true,
      accept: ['.csv', '.tsv', '.json', '.jsonl', '.ndjson', '.xlsx', '.parquet'],
    },
    {
      name: 'format',
      type: 'enum',
      label: 'Format',
      help: '"auto" goes by the file name\'s ending (.csv, .tsv, .json, .jsonl, .ndjson, .xlsx, .parquet); choose one when the name does not tell.',
      required: false,
      default: 'auto',
      options: ['auto', 'csv', 'tsv', 'json', 'jsonl', 'xlsx', 'parquet'],
    },
    {
      name: 'sheet',
      type: 'string',
      label: 'Sheet',
      help: 'Excel files: the name of the sheet to read. Empty: the first sheet. Its first row names the columns.',
      required: false,
      default: '',
      max_length: 100,
    },
  ],
  inputs: { min: 0, max: 0 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free: reading files costs nothing.' },
  i18n: {
    'zh-CN': {
      name: '导入文件',
      description:
        '从你的文件中读取一个数据文件成为一张表：CSV、TSV、JSON（对象列表，或每行一个对象）、JSON Lines、Excel（.xlsx）或 Parquet。列的类型（数字、日期、真/假）根据值自动识别。',
      params: {
        file: { label: '文件', help: '要读取的文件，从你的文件中选择。' },
        format: { label: '格式', help: '"auto" 按文件名后缀（.csv、.tsv、.json、.jsonl、.ndjson、.xlsx、.parquet）判断；文件名无法说明格式时请手动选择。' },
        sheet: { label: '工作表', help: 'Excel 文件：要读取的工作表名称。留空则读取第一个工作表。其第一行是列名。' },
      },
      cost_note: '免费：读取文件不收费。',
    },
  },
};

const runner: SourceRunner = {
  kind: 'source',
  outputColumns: () => [],
  async run(ctx, stored) {
    const params = resolveParams(description, stored, ctx.vars);
    const fileId = idParam(params, 'file', 'server.params.file');
    const chosen = enumOf(params, 'format', ['auto', ...FILE_FORMATS]);
    const sheet = typeof params.sheet === 'string' ? params.sheet.trim() : '';
    ctx.progress({ done: 0, phase: 'reading' });
    return ctx.files.withLocalFile(fileId, async (file) => {
      const what = quotedName(file.name);
      const format = chosen === 'auto' ? formatOf(file.name) : chosen;
      if (!format) throw paramProblem(['format'], 'server.steps.fileFormat', { name: file.name });
      return finished(ctx, await readFileAs(ctx, format, file.path, file.size, sheet, what), what);
    });
  },
  /**
   * Deferred as Import CSV is, for every format DuckDB reads itself (CSV, TSV, JSON, JSON Lines,
   * Parquet): the dataset keeps a copy of the file (a hard link on local storage) and a recipe over
   * it, so the records are read once, by whatever first needs them, instead of being written to a
   * snapshot here. Excel is converted and written (`run`).
   */
  async defer(ctx, stored) {
    const params = resolveParams(description, stored, ctx.vars);
    const fileId = idParam(params, 'file', 'server.params.file');
    const chosen = enumOf(params, 'format', ['auto', ...FILE_FORMATS]);
    const copyKey = sourceCopyKey(ctx.ownerId, ctx.output.datasetId, 'other');
    return deferredFileRecipe(
      ctx,
      fileId,
      copyKey,
      (file) => {
        const format = chosen === 'auto' ? formatOf(file.name) : chosen;
        if (!format) throw paramProblem(['format'], 'server.steps.fileFormat', { name: file.name });
        return copyReadOf(ctx, format);
      },
      quotedName,
    );
  },
};

export const importFile: StepType = {
  description,
  runner,
  cacheable: true,
  billing: 'run',
  outsideCalls: 'none',
  // The file's records as counted when it was uploaded, when it is read in the format it was counted in.
  async estimateOutputRecords(params, lookup) {
    if (typeof params.file !== 'string') return null;
    const counted = await lookup.fileRowCount(params.file);
    const format = typeof params.format === 'string' ? params.format : 'auto';
    return counted && (format === 'auto' || format === counted.format) ? counted.rows : null;
  },
};
