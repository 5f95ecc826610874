import type { StepTypeDescription } from './step-type';

export const importFolder: StepTypeDescription = {
  id: 'import_folder',
  name: 'Import folder',
  description:
    'Read the files in a folder of your files, in one of two ways. "files": one record per file, with its name, path, type and size, and optionally its text, to process many documents one by one. "records": read every data file (CSV, TSV, JSON, JSON Lines, Excel, Parquet) and put all their records in one table, with a file_name column saying which file each record came from; columns are matched by name.',
  category: 'source',
  tags: ['import', 'folder', 'file', 'documents', 'source'],
  params: [
    { name: 'folder', type: 'folder', label: 'Folder', help: 'The folder to read, chosen from your files.', required: true },
    {
      name: 'read',
      type: 'enum',
      label: 'Read',
      help: '"files": one record per file (file_name, path, type, size, and content if chosen). "records": the records of every CSV, TSV, JSON, JSON Lines, Excel (first sheet) and Parquet file, in one table: file_name (the file\'s path in the folder) first, then the files\' columns matched by name; a column a file lacks is empty for its records, and a column whose type differs between files becomes the wider type (or text). Other files and files without records are skipped; a file that cannot be read stops the step and is named.',
      required: false,
      default: 'files',
      options: ['files', 'records'],
    },
    {
      name: 'pattern',
      type: 'string',
      label: 'File name pattern',
      help: 'Only files whose name matches, e.g. *.pdf, *.csv or report-*.txt: * matches any characters, ? one character, capitals do not matter. * matches everything.',
      required: false,
      default: '*',
      max_length: 200,
    },
    {
      name: 'recursive',
      type: 'boolean',
      label: 'Include subfolders',
      help: 'On: also read the files in folders inside this one.',
      required: false,
      default: true,
    },
    {
      name: 'include_content',
      type: 'boolean',
      label: 'Read file contents',
      help: 'With Read "files" only. On: add a content column with the text of each text, CSV, JSON, Markdown, XML, HTML, YAML or log file (at most 1,000,000 characters); other files get an empty value.',
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
      description:
        '读取你的某个文件夹中的文件，有两种方式。“files”：每个文件生成一条记录，包含文件名、路径、类型和大小，还可以包含文本内容，适合逐个处理大量文档。“records”：读取每个数据文件（CSV、TSV、JSON、JSON Lines、Excel、Parquet），把它们的所有记录放进一张表，并用 file_name 列标明每条记录来自哪个文件；各文件的列按名称对应。',
      params: {
        folder: { label: '文件夹', help: '要读取的文件夹，从你的文件中选择。' },
        read: {
          label: '读取方式',
          help: '“files”：每个文件一条记录（file_name、path、type、size，若开启则还有 content）。“records”：把每个 CSV、TSV、JSON、JSON Lines、Excel（第一个工作表）和 Parquet 文件的记录放进一张表：第一列 file_name（文件在该文件夹中的路径），然后是各文件的列，按名称对应；某文件缺少的列在其记录中为空，在不同文件中类型不同的列取更宽的类型（或文本）。其他文件和没有记录的文件会被跳过；无法读取的文件会使该步骤停止，并指明是哪个文件。',
        },
        pattern: {
          label: '文件名模式',
          help: '只读取名称匹配的文件，例如 *.pdf、*.csv 或 report-*.txt：* 匹配任意字符，? 匹配一个字符，不区分大小写。* 匹配所有文件。',
        },
        recursive: { label: '包含子文件夹', help: '开启：同时读取其中各级子文件夹里的文件。' },
        include_content: {
          label: '读取文件内容',
          help: '仅用于读取方式“files”。开启：增加 content 列，存放每个文本、CSV、JSON、Markdown、XML、HTML、YAML 或日志文件的文字（最多 1,000,000 个字符）；其他文件为空值。',
        },
      },
      cost_note: '免费：读取文件不收费。',
    },
  },
};
