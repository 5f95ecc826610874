import { saveFolderParam, saveFolderTextsZh, recordIdColumnParam, recordIdColumnTextsZh } from './export-params';
import type { StepType, StepTypeDescription } from './step-type';
import { csvSelectList } from '../datasets/csv-cells';
import { sqlString } from '../datasets/sql';
import type { ParamValues } from '../params';
import { resolveParams } from '../runners/columns';
import type { Column, SinkRunner, Vars } from '../runners/types';
import { one, enumValue, booleanValue, optionalText, fileName } from '../sinks/sink-params';
import { copyToSavedFile } from '../sinks/sink-output';

const description: StepTypeDescription = {
  id: 'export_csv',
  name: 'Export CSV',
  description: 'Save (write) the table as a CSV file in your files, ready to download or open in Excel or Google Sheets. Usually the last step of a workflow.',
  category: 'output',
  tags: ['export', 'csv', 'file', 'output'],
  params: [
    {
      name: 'file_name',
      type: 'template',
      label: 'File name',
      help: 'Name of the file to write, e.g. customers-{{var.month}}.csv. If the folder already holds a file of that name, the new one gets a numbered name, e.g. export (1).csv; the old file is kept.',
      required: false,
      default: 'export.csv',
      max_length: 255,
    },
    {
      name: 'delimiter',
      type: 'enum',
      label: 'Delimiter',
      help: 'The character between values. Excel in many European languages expects a semicolon.',
      required: false,
      default: 'comma',
      options: ['comma', 'semicolon', 'tab', 'pipe'],
    },
    saveFolderParam,
    recordIdColumnParam,
    { name: 'include_header', type: 'boolean', label: 'Write a header line', help: 'On: the first line names the columns.', required: false, default: true },
    {
      name: 'raw_formulas',
      type: 'boolean',
      label: 'Keep formulas as they are',
      help: "Off: a text that starts with =, +, -, @, a tab or a carriage return gets a ' in front, so a spreadsheet opening the file shows it as text instead of running it as a formula (numbers are written as they are). On: every value exactly as it is, for a program that reads the file; do not open such a file in a spreadsheet if the data may come from others.",
      required: false,
      default: false,
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['file'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '导出 CSV',
      description: '把表保存为你文件中的 CSV 文件，可直接下载或用 Excel、Google 表格打开。通常是工作流的最后一步。',
      params: {
        file_name: {
          label: '文件名',
          help: '要写入的文件名，例如 customers-{{var.month}}.csv。若文件夹中已有同名文件，新文件会使用带编号的名称，例如 export (1).csv，原文件保留。',
        },
        delimiter: { label: '分隔符', help: '值之间的分隔字符。许多欧洲语言版本的 Excel 需要分号。' },
        folder: saveFolderTextsZh,
        include_record_id: recordIdColumnTextsZh,
        include_header: { label: '写入表头行', help: '开启：第一行写入列名。' },
        raw_formulas: {
          label: '保留公式原样',
          help: "关闭：以 =、+、-、@、制表符或回车开头的文本前会加上 '，电子表格打开文件时会把它显示为文本，而不是当作公式执行（数字按原样写入）。开启：所有值完全按原样写入，供程序读取；如果数据可能来自他人，请勿用电子表格打开这样的文件。",
        },
      },
      cost_note: '免费。',
    },
  },
};

const DELIMITERS = { comma: ',', semicolon: ';', tab: '\t', pipe: '|' } as const;

function csvPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams(description, stored, vars);
  const delimiter = DELIMITERS[enumValue(params, 'delimiter', Object.keys(DELIMITERS) as (keyof typeof DELIMITERS)[])];
  const header = booleanValue(params, 'include_header');
  const rawFormulas = booleanValue(params, 'raw_formulas');
  const includeRecordId = booleanValue(params, 'include_record_id');
  const folderId = optionalText(params, 'folder');
  const name = vars ? fileName(params, vars, 'export.csv') : null;
  return { columns, delimiter, header, rawFormulas, includeRecordId, folderId, name };
}

const runner: SinkRunner = {
  kind: 'sink',
  streamsInput: true,
  outputColumns: (inputs, params, vars) => csvPlan(inputs, params, vars).columns,
  run(ctx, inputs, params) {
    const plan = csvPlan([inputs[0]?.columns ?? []], params, ctx.vars);
    const file = { name: plan.name!, folderId: plan.folderId, extension: 'csv', includeRecordId: plan.includeRecordId };
    // DuckDB quotes a value only when it must (delimiter, quote, line break), doubling inner quotes;
    // NULL is an empty field, an empty text `""`, so the two stay apart. Text cells that a
    // spreadsheet would run as formulas get a `'` unless asked not to (csv-cells.ts).
    return copyToSavedFile(
      ctx,
      inputs[0],
      file,
      (columns, scan, target) =>
        `COPY (SELECT ${csvSelectList(columns, { raw: plan.rawFormulas })} FROM ${scan}) TO ${target} (FORMAT csv, DELIMITER ${sqlString(plan.delimiter)}, HEADER ${plan.header}, QUOTE '"', ESCAPE '"')`,
    );
  },
};

export const exportCsv: StepType = { description, runner, cacheable: false, billing: 'run', outsideCalls: 'none' };
