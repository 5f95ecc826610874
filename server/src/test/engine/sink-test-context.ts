import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Datasets } from '../../engine/datasets';
import type { OutboundHttpClient } from '../../engine/outbound-http';
import type { RunContext, SavedFile, UserFiles, Vars } from '../../engine/runners/types';
import { logText } from '../../engine/run-log';
import { MemoryCallJournal, untouchableAi } from './per-record-test-context';

/**
 * A RunContext for the sinks' tests: real datasets and a real HTTP client, and a UserFiles that
 * keeps saved files in a folder and remembers each `save` call (free names on a clash are the
 * engine's UserFiles' job, so this one keeps the name it is given).
 */
export interface SinkTestContext {
  ctx: RunContext;
  /** Each `save` call's name and folder, and where the file now is. */
  saved: { name: string; folderId: string | null; path: string; file: SavedFile }[];
  logs: string[];
  progress: { done: number; total?: number | null; phase?: string }[];
  abort: AbortController;
}

/**
 * `scratchDir` must be among DuckDB's allowed directories (under the datasets' temporary folder,
 * `<DATA_DIR>/tmp/datasets/…`), as the engine's is; `dir` holds the saved files.
 */
export function sinkTestContext(options: {
  datasets: Datasets;
  http: OutboundHttpClient;
  dir: string;
  scratchDir: string;
  vars?: Vars;
  stepRunId?: string;
}): SinkTestContext {
  const { scratchDir } = options;
  const filesDir = path.join(options.dir, 'files');
  fs.mkdirSync(scratchDir, { recursive: true });
  fs.mkdirSync(filesDir, { recursive: true });
  const saved: SinkTestContext['saved'] = [];
  const logs: string[] = [];
  const progress: SinkTestContext['progress'] = [];
  const abort = new AbortController();
  const files: UserFiles = {
    scratchDir,
    withLocalFile: () => Promise.reject(new Error('not used by sinks')),
    listFolder: () => Promise.reject(new Error('not used by sinks')),
    async save({ name, folderId, localPath }) {
      const id = randomUUID();
      const target = path.join(filesDir, id);
      await fs.promises.rename(localPath, target);
      const file: SavedFile = { id, name, folderId: folderId ?? null, size: (await fs.promises.stat(target)).size };
      saved.push({ name, folderId: folderId ?? null, path: target, file });
      return file;
    },
  };
  const ctx: RunContext = {
    ownerId: '6c0f8f8e-2f4e-4f57-9d7a-3b8f1f6c2a10',
    stepRunId: options.stepRunId ?? randomUUID(),
    signal: abort.signal,
    vars: options.vars ?? {},
    sampleSize: null,
    datasets: options.datasets,
    dataset: () => Promise.reject(new Error('a sink reads no dataset by id')),
    usage: () => undefined,
    files,
    http: options.http,
    calls: new MemoryCallJournal(),
    ai: untouchableAi(),
    output: { datasetId: randomUUID(), name: 'output' },
    log: (key, values) => logs.push(logText('en', key, values)),
    progress: (update) => progress.push(update),
  };
  return { ctx, saved, logs, progress, abort };
}
