import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../lib/worker-threads';
import { StepRunFailed } from '../runners/execute';
import type { RunContext } from '../runners/types';
import { checkAborted, quotedName } from './source-dataset';
import {
  MAX_XLSX_BYTES,
  MAX_XLSX_PARTS,
  MAX_XLSX_READS_AT_ONCE,
  XLSX_LIMITS,
  XLSX_WORKER_HEAP_MB,
  type XlsxFailure,
  type XlsxJob,
  type XlsxLimits,
  type XlsxWorkerMessage,
} from './xlsx-limits';

/**
 * An Excel sheet as JSON Lines in the step's scratch folder, for DuckDB's type inference. The sheet
 * is read in a worker thread (xlsx-worker.ts, xlsx-sheet.ts) as its rows stream out of the zip, so
 * the API's event loop keeps answering while a big workbook is read, and the bounds of
 * xlsx-limits.ts end a workbook bomb with its own message. Decision 0063.
 */

const running = new Set<Worker>();
let reading = 0;
const waiting: (() => void)[] = [];

/** Excel reads whose worker thread is alive now (a stopped or finished read leaves none). */
export const xlsxWorkersRunning = () => running.size;

const stopped = (ctx: RunContext) => new StepRunFailed('The run was stopped', ctx.signal.reason);

/** Waits for one of the MAX_XLSX_READS_AT_ONCE turns; an abort while waiting leaves the queue. */
async function turn(ctx: RunContext): Promise<void> {
  if (reading < MAX_XLSX_READS_AT_ONCE) {
    reading++;
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const wake = () => {
      ctx.signal.removeEventListener('abort', onAbort);
      reading++;
      resolve();
    };
    const onAbort = () => {
      waiting.splice(waiting.indexOf(wake), 1);
      reject(stopped(ctx));
    };
    waiting.push(wake);
    ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
}

function endTurn(): void {
  reading--;
  waiting.shift()?.();
}

export interface XlsxReadOptions {
  /** Lower bounds than XLSX_LIMITS, for tests. */
  limits?: Partial<XlsxLimits>;
}

export async function xlsxToJsonl(
  ctx: RunContext,
  filePath: string,
  size: number,
  sheetName: string,
  what: string,
  limit: number,
  options: XlsxReadOptions = {},
): Promise<{ file: string; rows: number; header?: string[] }> {
  if (size > MAX_XLSX_BYTES)
    throw new StepRunFailed(`${what} is larger than ${mb(MAX_XLSX_BYTES)} MB, the most an Excel file may be`, null, {
      key: 'server.steps.xlsxReadFileTooLarge',
      values: { what, limit: mb(MAX_XLSX_BYTES) },
    });
  checkAborted(ctx);
  const limits = { ...XLSX_LIMITS, ...options.limits };
  const out = path.join(ctx.files.scratchDir, `sheet-${randomUUID()}.jsonl`);
  await turn(ctx);
  try {
    const { rows, header } = await readInWorker(ctx, { file: filePath, out, sheet: sheetName, limit, limits }, what);
    return { file: out, rows, ...(rows === 0 ? { header } : {}) };
  } catch (err) {
    await fs.promises.rm(out, { force: true });
    throw err;
  } finally {
    endTurn();
  }
}

/** Runs the read in its own thread, ended on the step's abort (pause, cancel, shutdown) and once it answers. */
function readInWorker(ctx: RunContext, job: XlsxJob, what: string): Promise<{ rows: number; header: string[] }> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(path.join(__dirname, 'xlsx-worker'), { workerData: job, resourceLimits: { maxOldGenerationSizeMb: XLSX_WORKER_HEAP_MB } });
    running.add(worker);
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      ctx.signal.removeEventListener('abort', onAbort);
      // Ended whatever happened: after a preview's last record it may still hold the zip open.
      void worker.terminate().finally(() => {
        running.delete(worker);
        settle();
      });
    };
    const onAbort = () => finish(() => reject(stopped(ctx)));
    worker.on('message', (message: XlsxWorkerMessage) => {
      if (message.type === 'progress') ctx.progress({ done: message.rows, total: message.total, phase: 'reading' });
      else if (message.type === 'done') finish(() => resolve(message));
      else finish(() => reject(readFailure(ctx, what, message.failure, job.limits)));
    });
    worker.on('error', (err: Error & { code?: string }) =>
      finish(() =>
        reject(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new StepRunFailed(`${what} needs more than ${XLSX_WORKER_HEAP_MB} MB of memory to read`, err, {
                key: 'server.steps.xlsxReadOutOfMemory',
                values: { what },
              })
            : new StepRunFailed(`${what} could not be read: ${err.message.slice(0, 200)}`, err),
        ),
      ),
    );
    worker.on('exit', (code) => finish(() => reject(new StepRunFailed(`${what} could not be read: its reader ended (exit code ${code})`, null))));
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    if (ctx.signal.aborted) onAbort();
  });
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toLocaleString('en-US', { maximumFractionDigits: 1 });
const count = (n: number) => n.toLocaleString('en-US');

/** The worker's reason as the step's failure: the bounds with their own text, the rest as before (English, in the run's log). */
function readFailure(ctx: RunContext, what: string, failure: XlsxFailure, limits: XlsxLimits): StepRunFailed {
  const bound = (reason: string, key: string, limit: string) => new StepRunFailed(`${what} ${reason}`, null, { key, values: { what, limit } });
  switch (failure.code) {
    case 'unreadable':
      ctx.log('server.runLog.xlsxUnreadable', { source: what, detail: failure.detail });
      return new StepRunFailed(`${what} is not a readable Excel (.xlsx) workbook`, null);
    case 'tooManyParts':
      ctx.log('server.runLog.xlsxTooManyParts', { source: what, parts: count(failure.parts), limit: count(MAX_XLSX_PARTS) });
      return new StepRunFailed(`${what} is not a readable Excel (.xlsx) workbook`, null);
    case 'noSheets':
      return new StepRunFailed(`${what} has no sheets`, null);
    case 'noSheet':
      return new StepRunFailed(`${what} has no sheet ${quotedName(failure.sheet)}; its sheets are ${failure.names.map(quotedName).join(', ')}`, null);
    case 'empty':
      return new StepRunFailed(`${what} is empty: its first row should name the columns`, null);
    case 'unpackedTooLarge':
      return bound(`unpacks to more than ${mb(limits.unpackedBytes)} MB of XML`, 'server.steps.xlsxReadUnpackedTooLarge', mb(limits.unpackedBytes));
    case 'tooManyRows':
      return bound(`has more than ${count(limits.rows)} rows`, 'server.steps.xlsxReadTooManyRows', count(limits.rows));
    case 'tooManyColumns':
      return bound(`has a row of more than ${count(limits.columns)} columns`, 'server.steps.xlsxReadTooManyColumns', count(limits.columns));
    case 'tooManyCells':
      return bound(`has more than ${count(limits.cells)} cells`, 'server.steps.xlsxReadTooManyCells', count(limits.cells));
    case 'recordsTooLarge':
      return bound(`makes more than ${mb(limits.recordBytes)} MB of records`, 'server.steps.xlsxReadRecordsTooLarge', mb(limits.recordBytes));
  }
}
