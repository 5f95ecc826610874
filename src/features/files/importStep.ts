/**
 * Which files a step can read. `acceptsFile` is the rule of a `file` param's `accept` (the name
 * endings the step reads, e.g. [".csv"]), the same as the server's (engine/params.ts): the file
 * picker offers only such files. `importStepFor` is the catalogue step that reads a stored file, if
 * any: the one rule behind the file manager's "Use in a workflow" (offered only when there is such a
 * step) and the workflows page's "start from this file". It mirrors the server's import steps
 * (server/src/engine/step-types/import-*.ts): import_csv reads one CSV file, import_file one CSV,
 * TSV, JSON, JSON lines, Excel or Parquet file; import_folder reads folders and import_dataset
 * datasets, not files.
 */
export type FileImportStep = 'import_csv' | 'import_file';

/** What import_csv's and import_file's `file` params accept (their `accept` in the catalogue). */
const CSV_FILES = ['.csv'];
const DATA_FILES = ['.csv', '.tsv', '.json', '.jsonl', '.ndjson', '.xlsx', '.parquet'];

export function acceptsFile(accept: string[] | undefined, fileName: string): boolean {
  const name = fileName.trim().toLowerCase();
  return !accept?.length || accept.some((ending) => name.endsWith(ending));
}

export function importStepFor(fileName: string): FileImportStep | null {
  // A CSV keeps its own step: its delimiter, header and encoding settings are the ones people tune.
  if (acceptsFile(CSV_FILES, fileName)) return 'import_csv';
  return acceptsFile(DATA_FILES, fileName) ? 'import_file' : null;
}
