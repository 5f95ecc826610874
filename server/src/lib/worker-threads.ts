import path from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread on `entry`, a module path without its extension (`path.join(__dirname,
 * 'sandbox-worker')`). Under ts-jest or tsx the code is TypeScript (this file's own name ends in
 * .ts) and a bare worker could not load the entry, so the worker first registers tsx's CommonJS
 * hook; compiled (`npm start`, `npm run worker`), the entry is the .js file of that name.
 */
export function startWorker(entry: string, options: WorkerOptions = {}): Worker {
  const extension = path.extname(__filename);
  const file = `${entry}${extension}`;
  if (extension === '.ts') return new Worker(`require('tsx/cjs/api').register(); require(${JSON.stringify(file)});`, { ...options, eval: true });
  return new Worker(file, options);
}
