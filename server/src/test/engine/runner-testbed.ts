import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../config/config';
import { createStorage } from '../../storage';
import { Datasets, recipeRelation, type DatasetMetadata, type DatasetRecipe } from '../../engine/datasets';
import { AddressPolicy, createOutboundHttpClient, type OutboundHttpClient } from '../../engine/outbound-http';
import { StepRunFailed } from '../../engine/runners/execute';
import type { FolderEntry, RunContext, SavedFile, UserFiles, Vars } from '../../engine/runners/types';
import { logText } from '../../engine/run-log';
import { MemoryCallJournal, untouchableAi } from './per-record-test-context';

/**
 * For runner tests (sources, sinks, per-record steps): real DuckDB over Parquet snapshots in a
 * temporary DATA_DIR, and a RunContext whose user files are real files in a folder DuckDB may
 * read (inside the datasets' temporary folder, as the engine's local copies are), by id.
 */
export interface RunnerTestbed {
  readonly dir: string;
  readonly datasets: Datasets;
  readonly ownerId: string;
  /** The user's files: add one (content as text or bytes) and get its id; `folder` is a folder id from `addFolder`. */
  addFile(name: string, content: string | Buffer, folderId?: string | null): string;
  addFolder(name: string, parentId?: string | null): string;
  /** Makes a dataset findable by `ctx.dataset(id)`, as the owner's. */
  own(meta: DatasetMetadata): void;
  /** Files saved by sinks, by id. */
  saved: Map<string, SavedFile & { path: string }>;
  context(options?: {
    sampleSize?: number | null;
    vars?: Vars;
    signal?: AbortSignal;
    name?: string;
  }): RunContext & { lines: string[]; updates: { done: number; total?: number | null; phase?: string }[] };
  close(): Promise<void>;
}

interface StoredFile {
  id: string;
  name: string;
  folderId: string | null;
  path: string;
}

export function createRunnerTestbed(): RunnerTestbed {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-runner-bed-'));
  const config = loadConfig({ DATA_DIR: dir, DUCKDB_THREADS: '2', DUCKDB_MEMORY_LIMIT: '512MB' });
  const datasets = new Datasets({ storage: createStorage(config).storage, config: config.datasets });
  // Inside `tempDir/datasets`, one of the folders DuckDB may read (see Datasets' constructor).
  const filesRoot = path.join(config.datasets.tempDir, 'datasets', 'test-user-files');
  const scratchRoot = path.join(config.datasets.tempDir, 'datasets', 'test-scratch');
  fs.mkdirSync(filesRoot, { recursive: true });
  const ownerId = randomUUID();
  const files = new Map<string, StoredFile>();
  const folders = new Map<string, { name: string; parentId: string | null }>();
  const owned = new Map<string, DatasetMetadata>();
  const saved = new Map<string, SavedFile & { path: string }>();
  const http: OutboundHttpClient = createOutboundHttpClient({ policy: new AddressPolicy({ allowedHosts: ['127.0.0.1'] }), defaultTimeoutMs: 5000 });

  const find = (fileId: string) => {
    const file = files.get(fileId);
    if (!file || !fs.existsSync(file.path)) throw new StepRunFailed(`The file ${fileId} is not among your files`, null);
    return file;
  };
  const within = (folderId: string | null, ancestorId: string): string | null => {
    const names: string[] = [];
    for (let id = folderId; id; id = folders.get(id)?.parentId ?? null) {
      if (id === ancestorId) return names.reverse().join('/');
      names.push(folders.get(id)!.name);
    }
    return null;
  };

  const userFiles = (scratchDir: string): UserFiles => ({
    scratchDir,
    async withLocalFile(fileId, fn) {
      const file = find(fileId);
      return fn({ id: file.id, name: file.name, size: fs.statSync(file.path).size, path: file.path });
    },
    async listFolder(folderId) {
      if (!folders.has(folderId)) throw new StepRunFailed(`The folder ${folderId} is not among your files`, null);
      const entries: FolderEntry[] = [];
      for (const file of files.values()) {
        const relative = within(file.folderId, folderId);
        if (relative === null) continue;
        entries.push({ id: file.id, name: file.name, path: relative ? `${relative}/${file.name}` : file.name, size: fs.statSync(file.path).size });
      }
      return entries.sort((a, b) => (a.path < b.path ? -1 : 1));
    },
    async save({ name, folderId = null, localPath }) {
      const id = randomUUID();
      const taken = new Set([...files.values()].filter((f) => f.folderId === folderId).map((f) => f.name));
      const ext = path.extname(name);
      let free = name;
      for (let n = 1; taken.has(free); n++) free = `${name.slice(0, name.length - ext.length)} (${n})${ext}`;
      const target = path.join(filesRoot, id);
      fs.mkdirSync(target);
      const file = path.join(target, free);
      fs.renameSync(localPath, file);
      files.set(id, { id, name: free, folderId, path: file });
      const result = { id, name: free, folderId, size: fs.statSync(file).size };
      saved.set(id, { ...result, path: file });
      return result;
    },
    async keep(fileId, storageKey) {
      const file = find(fileId);
      await datasets.storage.put(storageKey, fs.createReadStream(file.path));
      return { id: file.id, name: file.name, size: fs.statSync(file.path).size };
    },
  });

  return {
    dir,
    datasets,
    ownerId,
    saved,
    addFile(name, content, folderId = null) {
      const id = randomUUID();
      fs.mkdirSync(path.join(filesRoot, id));
      const file = path.join(filesRoot, id, name);
      fs.writeFileSync(file, content);
      files.set(id, { id, name, folderId, path: file });
      return id;
    },
    addFolder(name, parentId = null) {
      const id = randomUUID();
      folders.set(id, { name, parentId });
      return id;
    },
    own(meta) {
      owned.set(meta.id, meta);
    },
    context(options = {}) {
      const lines: string[] = [];
      const updates: { done: number; total?: number | null; phase?: string }[] = [];
      const stepRunId = randomUUID();
      const scratchDir = path.join(scratchRoot, stepRunId);
      fs.mkdirSync(scratchDir, { recursive: true });
      return {
        ownerId,
        stepRunId,
        signal: options.signal ?? new AbortController().signal,
        vars: options.vars ?? {},
        sampleSize: options.sampleSize ?? null,
        datasets,
        files: userFiles(scratchDir),
        http,
        calls: new MemoryCallJournal(),
        ai: untouchableAi(),
        output: { datasetId: randomUUID(), name: options.name ?? 'output' },
        usage: () => undefined,
        async dataset(datasetId) {
          const meta = owned.get(datasetId);
          if (!meta) throw new StepRunFailed(`The dataset ${datasetId} is not among your datasets`, null);
          return meta;
        },
        log: (key, values) => lines.push(logText('en', key, values)),
        progress: (update) => updates.push(update),
        lines,
        updates,
      };
    },
    async close() {
      await http.close();
      await datasets.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A deferred source's recipe, materialized, gives exactly what the writing source gave: the same
 * columns and count, and the same records with ids at the same positions.
 */
export async function expectRecipeWritesAsRun(bed: RunnerTestbed, recipe: DatasetRecipe | null, written: DatasetMetadata, datasetId: string): Promise<void> {
  expect(recipe).not.toBeNull();
  expect(recipe!.columns).toEqual(written.columns);
  const stored = await bed.datasets.writeRelation({ ownerId: bed.ownerId, name: 'x', datasetId, relation: recipeRelation(recipe!), idsUnique: true });
  expect([stored.rowCount, stored.columns]).toEqual([written.rowCount, written.columns]);
  const rows = async (meta: DatasetMetadata) => (await bed.datasets.records(meta, { page: 1, pageSize: 100 })).items;
  const strip = (items: Record<string, unknown>[]) => items.map(({ _id, ...rest }) => [String(_id).slice(24), rest]);
  expect(strip(await rows(stored))).toEqual(strip(await rows(written)));
}
