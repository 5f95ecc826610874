import type { StepType, StepTypeDescription } from './step-type';
import { resolveParams } from '../runners/columns';
import type { SourceRunner } from '../runners/types';
import { finished, idParam, quotedName } from '../sources/source-dataset';
import { deferredFileRecipe, sourceCopyKey } from '../sources/deferred-file';
import { csvCopyRead, csvOptions, readCsv } from '../sources/csv-sniffing';

const description: StepTypeDescription = {
  id: 'import_csv',
  name: 'Import CSV',
  description:
    'Load a CSV file (comma-separated values, e.g. a spreadsheet exported from Excel or Google Sheets) from your files and read it into a table: one row per line, one column per header field. The usual first step of a workflow.',
  category: 'source',
  tags: ['import', 'csv', 'file', 'source'],
  params: [
    { name: 'file', type: 'file', label: 'CSV file', help: 'The CSV file to read, chosen from your files.', required: true, accept: ['.csv'] },
    {
      name: 'delimiter',
      type: 'enum',
      label: 'Delimiter',
      help: 'The character between values. "auto" detects comma, semicolon, tab or pipe from the first lines.',
      required: false,
      default: 'auto',
      options: ['auto', 'comma', 'semicolon', 'tab', 'pipe'],
    },
    {
      name: 'has_header',
      type: 'boolean',
      label: 'First line is a header',
      help: 'On: the first line names the columns. Off: columns are named column_1, column_2, …',
      required: false,
      default: true,
    },
    {
      name: 'encoding',
      type: 'enum',
      label: 'Text encoding',
      help: "How the file's text is encoded. Most files are UTF-8; older Excel exports are often Latin-1.",
      required: false,
      default: 'utf-8',
      options: ['utf-8', 'latin1', 'utf-16le'],
    },
  ],
  inputs: { min: 0, max: 0 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free: reading files costs nothing.' },
  i18n: {
    'zh-CN': {
      name: '导入 CSV',
      description:
        '从你的文件中加载 CSV 文件（逗号分隔值，例如从 Excel 或 Google 表格导出的文件），读成一张表：每行一条记录，每个表头字段一列。通常是工作流的第一步。',
      params: {
        file: { label: 'CSV 文件', help: '要读取的 CSV 文件，从你的文件中选择。' },
        delimiter: { label: '分隔符', help: '值之间的分隔字符。"auto" 会根据前几行自动识别逗号、分号、制表符或竖线。' },
        has_header: { label: '第一行是表头', help: '开启：第一行是列名。关闭：列名依次为 column_1、column_2……' },
        encoding: { label: '文本编码', help: '文件文本的编码方式。大多数文件是 UTF-8；较旧的 Excel 导出文件常为 Latin-1。' },
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
    const options = csvOptions(params);
    ctx.progress({ done: 0, phase: 'reading' });
    return ctx.files.withLocalFile(fileId, async (file) => {
      const what = quotedName(file.name);
      return finished(ctx, await readCsv(ctx, file.path, options, what, file.size), what);
    });
  },
  /**
   * Deferred: the dataset keeps its own copy of the file (`datasets/<owner>/<id>.csv`) and its
   * recipe reads that copy with the options chosen now (delimiter, header names), so the records
   * and ids are the same whenever it is materialized. Only the file's head is read here (DuckDB
   * sniffs the types); a line breaking the shape fails the step that first reads the rows.
   */
  async defer(ctx, stored) {
    const params = resolveParams(description, stored, ctx.vars);
    const fileId = idParam(params, 'file', 'server.params.file');
    const options = csvOptions(params);
    return deferredFileRecipe(ctx, fileId, sourceCopyKey(ctx.ownerId, ctx.output.datasetId, 'csv'), () => csvCopyRead(ctx, options), quotedName);
  },
};

export const importCsv: StepType = {
  description,
  runner,
  cacheable: true,
  billing: 'run',
  outsideCalls: 'none',
  // The file's records as counted when it was uploaded (with a header line); without one, that line is a record too.
  async estimateOutputRecords(params, lookup) {
    if (typeof params.file !== 'string') return null;
    const counted = await lookup.fileRowCount(params.file);
    if (!counted || (counted.format !== 'csv' && counted.format !== 'tsv')) return null;
    return params.has_header === false ? counted.rows + 1 : counted.rows;
  },
};
