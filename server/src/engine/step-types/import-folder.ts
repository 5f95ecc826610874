import type { StepTypeDescription } from './step-type';

export const importFolder: StepTypeDescription = {
  id: 'import_folder',
  name: 'Import folder',
  description:
    'Read every file in a folder of your files and make one record per file, with its name, path, type, size and date, and optionally its text content. Use it to process many documents, PDFs or images one by one.',
  category: 'source',
  tags: ['import', 'folder', 'file', 'documents', 'source'],
  params: [
    { name: 'folder', type: 'folder', label: 'Folder', help: 'The folder to read, chosen from your files.', required: true },
    {
      name: 'pattern',
      type: 'string',
      label: 'File name pattern',
      help: 'Only files whose name matches, e.g. *.pdf or report-*.txt. * matches everything.',
      required: false,
      default: '*',
      max_length: 200,
    },
    { name: 'recursive', type: 'boolean', label: 'Include subfolders', help: 'On: also read the files in folders inside this one.', required: false, default: true },
    {
      name: 'include_content',
      type: 'boolean',
      label: 'Read file contents',
      help: 'On: add a content column with the text of each text, CSV, JSON, Markdown or PDF file.',
      required: false,
      default: false,
    },
  ],
  inputs: { min: 0, max: 0 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free: reading files costs nothing.' },
  i18n: {
    'zh-CN': {
      name: '导入文件夹',
      description: '读取你的某个文件夹中的所有文件，每个文件生成一条记录，包含文件名、路径、类型、大小和日期，还可以包含文本内容。适合逐个处理大量文档、PDF 或图片。',
      params: {
        folder: { label: '文件夹', help: '要读取的文件夹，从你的文件中选择。' },
        pattern: { label: '文件名模式', help: '只读取名称匹配的文件，例如 *.pdf 或 report-*.txt。* 匹配所有文件。' },
        recursive: { label: '包含子文件夹', help: '开启：同时读取其中各级子文件夹里的文件。' },
        include_content: { label: '读取文件内容', help: '开启：增加 content 列，存放文本、CSV、JSON、Markdown 或 PDF 文件的文字内容。' },
      },
      cost_note: '免费：读取文件不收费。',
    },
  },
};
