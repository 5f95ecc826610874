import { saveFolderParam, saveFolderTextsZh } from './export-params';
// exceljs is loaded by the step that writes a workbook (it takes ~0.2 s to load, which every
// process start and every test of the engine paid for).
import type * as ExcelJS from 'exceljs';
import type { StepType, StepTypeDescription } from './step-type';
import type { DatasetMetadata, JsonValue } from '../datasets';
import { sqlString } from '../datasets/sql';
import type { ParamValues } from '../params';
import { resolveParams, typeCategory } from '../runners/columns';
import { StepRunFailed } from '../runners/execute';
import type { Column, RunContext, SinkRunner, Vars } from '../runners/types';
import { one, enumValue, booleanValue, optionalText, fileName, fileColumns } from '../sinks/sink-params';
import { PAGE_RECORDS, runCopy, writeAndSave, withInputFile, pagesOf, selectList } from '../sinks/sink-output';

/**
 * JSON, JSON Lines and Excel in one step: they share every param but the format, and a person
 * looking for "export" picks the format in one form instead of among three near-identical steps.
 * CSV and Parquet keep their own steps (they have format-specific params and existing workflows).
 */
const description: StepTypeDescription = {
  id: 'export_file',
  name: 'Export JSON or Excel',
  description:
    'Save (write) the table as a JSON, JSON Lines or Excel (XLSX) file in your files: JSON for web apps and APIs, JSON Lines for data tools and logs, Excel for spreadsheets.',
  category: 'output',
  tags: ['export', 'json', 'jsonl', 'ndjson', 'excel', 'xlsx', 'file', 'output'],
  params: [
    {
      name: 'format',
      type: 'enum',
      label: 'Format',
      help: 'json: one JSON array of records. jsonl: one JSON record per line. xlsx: an Excel sheet with a header row (at most 1,048,575 records).',
      required: false,
      default: 'xlsx',
      options: ['json', 'jsonl', 'xlsx'],
    },
    {
      name: 'file_name',
      type: 'template',
      label: 'File name',
      help: 'Name of the file to write, e.g. customers-{{var.month}}.xlsx. Empty: export.json, export.jsonl or export.xlsx. If the folder already holds a file of that name, the new one gets a numbered name, e.g. export (1).csv; the old file is kept.',
      required: false,
      max_length: 255,
    },
    saveFolderParam,
    {
      name: 'include_record_id',
      type: 'boolean',
      label: 'Include record ids',
      help: 'On: each record gets an “_id” field with its id (to match rows up later). Off: only your columns.',
      required: false,
      default: false,
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['file'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '导出 JSON 或 Excel',
      description: '把表保存为你文件中的 JSON、JSON Lines 或 Excel（XLSX）文件：JSON 适合网页应用和 API，JSON Lines 适合数据工具和日志，Excel 适合电子表格。',
      params: {
        format: { label: '格式', help: 'json：一个记录组成的 JSON 数组。jsonl：每行一条 JSON 记录。xlsx：带表头行的 Excel 工作表（最多 1,048,575 条记录）。' },
        file_name: {
          label: '文件名',
          help: '要写入的文件名，例如 customers-{{var.month}}.xlsx。留空：export.json、export.jsonl 或 export.xlsx。若文件夹中已有同名文件，新文件会使用带编号的名称，例如 export (1).csv，原文件保留。',
        },
        folder: saveFolderTextsZh,
        include_record_id: { label: '包含记录 ID', help: '开启：每条记录多一个“_id”字段，为该记录的 ID（便于之后对应行）。关闭：只有你的列。' },
      },
      cost_note: '免费。',
    },
  },
};

/** Excel's sheet size (1,048,576 rows) less the header row. */
export const XLSX_MAX_RECORDS = 1_048_575;
/** Excel's longest cell text; longer values are cut there (Excel would refuse to open the file). */
const XLSX_MAX_CELL_TEXT = 32_767;

const FILE_FORMATS = ['json', 'jsonl', 'xlsx'] as const;

function filePlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams(description, stored, vars);
  const format = enumValue(params, 'format', FILE_FORMATS);
  const includeRecordId = booleanValue(params, 'include_record_id');
  const folderId = optionalText(params, 'folder');
  const name = vars ? fileName(params, vars, `export.${format}`) : null;
  return { columns, format, includeRecordId, folderId, name };
}

const runner: SinkRunner = {
  kind: 'sink',
  outputColumns: (inputs, params, vars) => filePlan(inputs, params, vars).columns,
  async run(ctx, inputs, params) {
    const plan = filePlan([inputs[0]?.columns ?? []], params, ctx.vars);
    const [input] = inputs;
    const columns = fileColumns(input.columns, plan.includeRecordId);
    if (plan.format === 'xlsx' && input.rowCount > XLSX_MAX_RECORDS) {
      throw new StepRunFailed(`An Excel sheet holds at most ${XLSX_MAX_RECORDS} records; the table has ${input.rowCount}`, null, {
        key: 'server.steps.xlsxTooManyRows',
        values: { limit: XLSX_MAX_RECORDS.toLocaleString('en-US'), count: input.rowCount.toLocaleString('en-US') },
      });
    }
    ctx.progress({ done: 0, total: input.rowCount, phase: 'writing' });
    const file = await writeAndSave(ctx, plan.name!, plan.folderId, plan.format, async (target) => {
      if (plan.format === 'xlsx') return writeXlsx(ctx, input, columns, target);
      // DuckDB writes each row as a JSON object (dates as "2024-01-15", numbers as numbers);
      // ARRAY makes one JSON array of them instead of one object per line.
      await withInputFile(ctx, input, (scan, bound) =>
        runCopy(ctx, `COPY (SELECT ${selectList(columns)} FROM ${scan}) TO ${sqlString(target)} (FORMAT json, ARRAY ${plan.format === 'json'})`, bound),
      );
    });
    ctx.progress({ done: input.rowCount, total: input.rowCount });
    ctx.log('server.runLog.savedRecords', { name: file.name, count: input.rowCount, size: file.size });
    return { files: [file], summary: { records: input.rowCount, file: file.name, bytes: file.size } };
  },
};

const EXCEL_DATE = 'yyyy-mm-dd';
const EXCEL_TIMESTAMP = 'yyyy-mm-dd hh:mm:ss';
const dateText = /^-?\d{4,}-\d{2}-\d{2}$/;
const zoneText = /(Z|[+-]\d{2}:?\d{2})$/;

/**
 * One cell: numbers as numbers (exact big integers and decimals that a double cannot hold stay
 * text), dates and timestamps as Excel dates (UTC: a sheet has no time zones), lists and objects
 * as their JSON, text cut at Excel's limit.
 */
function excelValue(value: JsonValue, column: Column): ExcelJS.CellValue {
  if (value === null) return null;
  const category = typeCategory(column.type);
  if (category === 'number' && typeof value === 'string') {
    const n = Number(value);
    const exact = Number.isFinite(n) && (column.type.toUpperCase().startsWith('DECIMAL') ? true : Number.isSafeInteger(n));
    return exact ? n : value;
  }
  if ((category === 'date' || category === 'timestamp') && typeof value === 'string') {
    const text = dateText.test(value) ? `${value}T00:00:00Z` : zoneText.test(value) ? value : `${value}Z`;
    const date = new Date(text);
    return Number.isNaN(date.getTime()) ? value : date;
  }
  if (typeof value === 'object') value = JSON.stringify(value);
  if (typeof value === 'string' && value.length > XLSX_MAX_CELL_TEXT) return value.slice(0, XLSX_MAX_CELL_TEXT);
  return value;
}

/** Streams the workbook to disk (exceljs' WorkbookWriter), a page of records at a time. */
async function writeXlsx(ctx: RunContext, input: DatasetMetadata, columns: Column[], target: string): Promise<void> {
  const { stream } = await import('exceljs');
  const workbook = new stream.xlsx.WorkbookWriter({ filename: target, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Data');
  sheet.columns = columns.map((c) => {
    const category = typeCategory(c.type);
    const numFmt = category === 'date' ? EXCEL_DATE : category === 'timestamp' ? EXCEL_TIMESTAMP : undefined;
    return { header: c.name, key: c.name, width: Math.min(50, Math.max(10, c.name.length + 2)), ...(numFmt ? { style: { numFmt } } : {}) };
  });
  sheet.getRow(1).font = { bold: true };
  for await (const page of pagesOf(ctx, input, PAGE_RECORDS)) {
    for (const record of page) sheet.addRow(columns.map((c) => excelValue(record[c.name] ?? null, c))).commit();
  }
  sheet.commit();
  await workbook.commit();
}

export const exportFile: StepType = { description, runner, cacheable: false, billing: 'run', outsideCalls: 'none' };
