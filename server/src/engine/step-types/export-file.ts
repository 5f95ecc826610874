import { saveFolderParam, saveFolderTextsZh } from './export-params';
import type { StepTypeDescription } from './step-type';

/**
 * JSON, JSON Lines and Excel in one step: they share every param but the format, and a person
 * looking for "export" picks the format in one form instead of among three near-identical steps.
 * CSV and Parquet keep their own steps (they have format-specific params and existing workflows).
 */
export const exportFile: StepTypeDescription = {
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
