import { saveFolderParam, saveFolderTextsZh, recordIdColumnParam, recordIdColumnTextsZh } from './export-params';
import type { StepTypeDescription } from './step-type';

export const exportCsv: StepTypeDescription = {
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
      },
      cost_note: '免费。',
    },
  },
};
