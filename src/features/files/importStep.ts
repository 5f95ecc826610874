/**
 * Which files a step can read. `acceptsFile` is the rule of a `file` param's `accept` (the name
 * endings the step reads, e.g. [".csv"]), the same as the server's (engine/params.ts): the file
 * picker offers only such files. `importStepFor` is the catalogue step that reads a stored file, if
 * any: the one rule behind the file manager's "Use in a workflow" (offered only when there is such a
 * step) and the workflows page's "start from this file". It mirrors the server's import steps
 * (server/src/engine/step-types/import-*.ts): import_csv reads one CSV file; import_folder reads
 * folders and import_dataset datasets, not files.
 */
export type FileImportStep = 'import_csv';

/** What import_csv's `file` param accepts (its `accept` in the catalogue). */
const CSV_FILES = ['.csv'];

export function acceptsFile(accept: string[] | undefined, fileName: string): boolean {
  const name = fileName.trim().toLowerCase();
  return !accept?.length || accept.some((ending) => name.endsWith(ending));
}

export function importStepFor(fileName: string): FileImportStep | null {
  return acceptsFile(CSV_FILES, fileName) ? 'import_csv' : null;
}
