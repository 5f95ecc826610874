import { parentPort, workerData } from 'node:worker_threads';
import { XlsxReadError, type XlsxJob, type XlsxWorkerMessage } from './xlsx-limits';
import { readSheet } from './xlsx-sheet';

/**
 * The entry of the worker thread that reads one Excel sheet (see xlsx.ts): its job comes as
 * `workerData`, it writes the records to the job's file and posts progress, then `done` or
 * `failed`. The step ends the thread on abort; nothing here needs to watch for it.
 */
const port = parentPort;
if (!port) throw new Error('xlsx-worker must run in a worker thread');
const post = (message: XlsxWorkerMessage) => port.postMessage(message);

readSheet(workerData as XlsxJob, (rows, total) => post({ type: 'progress', rows, total })).then(
  ({ rows, header }) => post({ type: 'done', rows, header }),
  (err: unknown) =>
    post({
      type: 'failed',
      failure: err instanceof XlsxReadError ? err.failure : { code: 'unreadable', detail: err instanceof Error ? err.message.slice(0, 200) : String(err) },
    }),
);
