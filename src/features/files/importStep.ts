/**
 * Which catalogue step can read a stored file, if any: the one rule behind the file manager's
 * "Use in a workflow" (offered only when there is such a step) and the workflows page's
 * "start from this file". Mirrors the server's import steps (server/src/engine/step-types/import-*.ts):
 * import_csv reads one CSV file; import_folder reads folders and import_dataset datasets, not files.
 */
export type FileImportStep = 'import_csv';

export function importStepFor(fileName: string): FileImportStep | null {
  return /\.csv$/i.test(fileName.trim()) ? 'import_csv' : null;
}
