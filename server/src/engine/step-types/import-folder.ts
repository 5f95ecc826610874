import type { StepType, StepTypeDescription } from './step-type';
import type { RowColumn } from '../datasets';
import { ID_COLUMN, resolveParams } from '../runners/columns';
import { StepRunFailed } from '../runners/execute';
import type { SourceRunner } from '../runners/types';
import { checkAborted, enumOf, finished, idParam, quotedName } from '../sources/source-dataset';
import { globToRegExp } from '../sources/folder-glob';
import { readFolderRecords } from '../sources/folder-records';
import fs from 'node:fs';
import path from 'node:path';

const description: StepTypeDescription = {
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

/** The most files one folder step lists; more fail the step rather than making an unbounded dataset. */
export const MAX_FOLDER_FILES = 10_000;
/** The most characters of one file's text kept in `content`. */
export const MAX_CONTENT_CHARS = 1_000_000;
/** The most records written at once. */
export const MAX_FOLDER_BATCH_RECORDS = 1000;
/**
 * The most bytes (UTF-8) of file contents one batch holds before it is written: a batch is held in
 * the step's process, the API's in the embedded default, until the dataset writer has taken it. By
 * records alone, 1,000 files of MAX_CONTENT_CHARS could make one batch of up to 4 GB; with this
 * bound a batch of big files is smaller (32 files of 1 MB), and never more than 32 MB plus nothing
 * (a file's content alone, at most 4 MB, is always below it). Decision 0070.
 */
export const MAX_FOLDER_BATCH_CONTENT_BYTES = 32 * 1024 * 1024;
const TEXT_EXTENSIONS = new Set(['.txt', '.csv', '.tsv', '.json', '.jsonl', '.ndjson', '.md', '.markdown', '.xml', '.html', '.htm', '.yaml', '.yml', '.log']);

const folderColumns = (includeContent: boolean): RowColumn[] => [
  { name: 'file_name', type: 'VARCHAR' },
  { name: 'path', type: 'VARCHAR' },
  { name: 'type', type: 'VARCHAR' },
  { name: 'size', type: 'BIGINT' },
  ...(includeContent ? [{ name: 'content', type: 'VARCHAR' as const }] : []),
];

/** `files`: one record per file (the listing); `records`: the data files' records in one table. */
export const FOLDER_READS = ['files', 'records'] as const;

const runner: SourceRunner = {
  kind: 'source',
  outputColumns(_inputs, stored) {
    const params = resolveParams(description, stored);
    // The files' own columns are known only once they are read, as with import_file.
    if (enumOf(params, 'read', FOLDER_READS) === 'records') return [];
    return [ID_COLUMN, ...folderColumns(params.include_content === true)];
  },
  async run(ctx, stored) {
    const params = resolveParams(description, stored, ctx.vars);
    const folderId = idParam(params, 'folder', 'server.params.folder');
    const read = enumOf(params, 'read', FOLDER_READS);
    const pattern = typeof params.pattern === 'string' && params.pattern.trim() ? params.pattern.trim() : '*';
    const matches = globToRegExp(pattern);
    const recursive = params.recursive !== false;
    const includeContent = params.include_content === true;
    const entries = (await ctx.files.listFolder(folderId))
      .filter((e) => (recursive || !e.path.includes('/')) && matches.test(e.name))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    if (entries.length > MAX_FOLDER_FILES)
      throw new StepRunFailed(`The folder has ${entries.length} matching files, more than the ${MAX_FOLDER_FILES} one step reads: narrow the pattern`, null);
    if (read === 'records') return readFolderRecords(ctx, entries, pattern, recursive);
    const chosen = ctx.sampleSize == null ? entries : entries.slice(0, Math.max(0, ctx.sampleSize));
    ctx.log(recursive ? 'server.runLog.listingWithSubfolders' : 'server.runLog.listing', { count: chosen.length, pattern: quotedName(pattern) });
    async function* batches() {
      let batch: Record<string, unknown>[] = [];
      let batchBytes = 0;
      let done = 0;
      for (const entry of chosen) {
        checkAborted(ctx);
        const ext = path.extname(entry.name).toLowerCase();
        const record: Record<string, unknown> = { file_name: entry.name, path: entry.path, type: ext.slice(1), size: entry.size };
        let bytes = 0;
        if (includeContent) {
          const content = TEXT_EXTENSIONS.has(ext)
            ? await ctx.files.withLocalFile(entry.id, async (file) => {
                const handle = await fs.promises.open(file.path, 'r');
                try {
                  // UTF-8 takes at most 4 bytes a character: this many bytes hold the kept characters.
                  const buffer = Buffer.alloc(Math.min(file.size, MAX_CONTENT_CHARS * 4));
                  const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
                  return buffer
                    .subarray(0, bytesRead)
                    .toString('utf8')
                    .replace(/^\uFEFF/, '')
                    .slice(0, MAX_CONTENT_CHARS);
                } finally {
                  await handle.close();
                }
              })
            : null;
          record.content = content;
          bytes = content === null ? 0 : Buffer.byteLength(content);
        }
        // Written before this record would take the batch past its bound in bytes.
        if (batch.length && batchBytes + bytes > MAX_FOLDER_BATCH_CONTENT_BYTES) {
          ctx.progress({ done, total: chosen.length, phase: 'reading' });
          yield batch;
          batch = [];
          batchBytes = 0;
        }
        batch.push(record);
        batchBytes += bytes;
        done++;
        if (batch.length === MAX_FOLDER_BATCH_RECORDS) {
          ctx.progress({ done, total: chosen.length, phase: 'reading' });
          yield batch;
          batch = [];
          batchBytes = 0;
        }
      }
      if (batch.length) yield batch;
    }
    const meta = await ctx.datasets.write({
      ownerId: ctx.ownerId,
      name: ctx.output.name,
      datasetId: ctx.output.datasetId,
      stepRunId: ctx.stepRunId,
      source: { columns: folderColumns(includeContent), batches: batches() },
    });
    return finished(ctx, meta, { key: 'server.runLog.source.folder' });
  },
};

export const importFolder: StepType = { description, runner, cacheable: false, billing: 'run', outsideCalls: 'none' };
