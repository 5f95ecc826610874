import type { ParamSpec } from './step-type';

/**
 * Params every export step shares, with their Chinese texts: where in the user's files the file
 * goes, and whether record ids go with it (the sink step types read both, through `engine/sinks/sink-params.ts`).
 */
export const saveFolderParam: ParamSpec = {
  name: 'folder',
  type: 'folder',
  label: 'Folder',
  help: 'The folder of your files to save it in. Empty: the top level of your files.',
  required: false,
};
export const saveFolderTextsZh = { label: '文件夹', help: '保存到你文件中的哪个文件夹。留空：保存在文件的最上层。' };

/** For tables written as columns (CSV, Parquet); export_file words it per record. */
export const recordIdColumnParam: ParamSpec = {
  name: 'include_record_id',
  type: 'boolean',
  label: 'Include record ids',
  help: "On: the file gets an “_id” column with each record's id (to match rows up later). Off: only your columns.",
  required: false,
  default: false,
};
export const recordIdColumnTextsZh = { label: '包含记录 ID', help: '开启：文件多一列“_id”，为每条记录的 ID（便于之后对应行）。关闭：只有你的列。' };
