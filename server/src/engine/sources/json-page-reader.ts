import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../lib/worker-threads';
import { StepRunFailed } from '../runners/execute';
import type { RunContext } from '../runners/types';
import { readPage, type PageJob, type PageResult } from './json-page';

/**
 * Pages of a JSON API read off the event loop (import_http_json, decision 0070). A page of at most
 * INLINE_JSON_PAGE_BYTES is read on the step's thread (a few milliseconds); a larger one, up to the
 * outbound client's 10 MB, in a worker thread started at the step's first large page and ended with
 * the step (or at once when it is stopped). Only the page's bytes go in and its JSON Lines come out:
 * the parsed answer never crosses, since copying it back would cost the event loop what parsing did.
 */

/**
 * Pages up to this size are read in place: JSON.parse and the records' JSON.stringify take about
 * 30 ms per MB on a 2-core server, so 256 KB holds the event loop for under 10 ms, less than starting
 * a worker would cost.
 */
export const INLINE_JSON_PAGE_BYTES = 256 * 1024;

/**
 * The worker's heap: a 10 MB answer of small records parses to about 100 MB of objects; a page that
 * needs more ends the worker (ERR_WORKER_OUT_OF_MEMORY) and fails the step, never the process.
 */
export const JSON_PAGE_WORKER_HEAP_MB = 512;

let alive = 0;
let readInWorker = 0;
/** Page-reading worker threads alive now (a finished or stopped step leaves none). */
export const jsonPageWorkersRunning = () => alive;
/** Pages read in a worker thread since the process started (for tests). */
export const jsonPagesReadInWorker = () => readInWorker;

export class JsonPageReader {
  private worker: Worker | null = null;
  private ended: Promise<void> = Promise.resolve();
  private pending: { resolve: (result: PageResult) => void; reject: (err: Error) => void } | null = null;
  private readonly onAbort = () => this.fail(new StepRunFailed('The run was stopped', this.ctx.signal.reason));

  constructor(
    private readonly ctx: RunContext,
    /** Page size from which pages are read in the worker; lower for tests. */
    private readonly inlineBytes = INLINE_JSON_PAGE_BYTES,
  ) {}

  /** The page's records and next page, read in place or in the worker by its size. */
  read(bytes: Buffer, job: PageJob): Promise<PageResult> {
    if (bytes.byteLength <= this.inlineBytes) return Promise.resolve(readPage(bytes, job));
    if (this.ctx.signal.aborted) return Promise.reject(new StepRunFailed('The run was stopped', this.ctx.signal.reason));
    const worker = this.worker ?? this.start();
    return new Promise<PageResult>((resolve, reject) => {
      this.pending = { resolve, reject };
      worker.postMessage({ bytes, job });
    });
  }

  /** Ends the worker, if one was started; resolves once it has exited (also when a stop began ending it). */
  close(): Promise<void> {
    this.ctx.signal.removeEventListener('abort', this.onAbort);
    const worker = this.worker;
    if (worker) {
      this.worker = null;
      this.ended = worker.terminate().then(() => undefined);
    }
    return this.ended;
  }

  private start(): Worker {
    const worker = startWorker(path.join(__dirname, 'json-page-worker'), { resourceLimits: { maxOldGenerationSizeMb: JSON_PAGE_WORKER_HEAP_MB } });
    alive++;
    this.worker = worker;
    worker.on('message', (result: PageResult) => {
      readInWorker++;
      const pending = this.pending;
      this.pending = null;
      pending?.resolve(result);
    });
    worker.on('error', (err: Error & { code?: string }) =>
      this.fail(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new StepRunFailed(`A page of the answer needs more than ${JSON_PAGE_WORKER_HEAP_MB} MB of memory to read`, err)
          : new StepRunFailed(`A page of the answer could not be read: ${err.message.slice(0, 200)}`, err),
      ),
    );
    worker.on('exit', (code) => {
      alive--;
      if (this.worker === worker) this.worker = null;
      this.fail(new StepRunFailed(`A page of the answer could not be read: its reader ended (exit code ${code})`, null));
    });
    this.ctx.signal.addEventListener('abort', this.onAbort, { once: true });
    return worker;
  }

  /** Rejects the page being read, if any, and ends the worker. */
  private fail(err: Error): void {
    const pending = this.pending;
    this.pending = null;
    pending?.reject(err);
    void this.close();
  }
}
