import { parentPort } from 'node:worker_threads';
import { CodeSandbox } from './code-sandbox';
import { SandboxError } from './errors';
import { loadQuickJS } from './quickjs';
import type { WorkerAnswer, WorkerJob } from './worker-pool';

/**
 * The entry of one sandbox worker thread (see `worker-pool.ts`): runs one batch at a time in
 * `CodeSandbox` and answers it. The QuickJS module is loaded before `started` is sent, so the
 * host's hard deadline counts the batch's own time, not a cold start.
 */
const port = parentPort;
if (!port) throw new Error('sandbox-worker must run in a worker thread');

port.on('message', (job: WorkerJob) => {
  void runJob(job).then((answer) => port.postMessage(answer));
});

async function runJob(job: WorkerJob): Promise<WorkerAnswer> {
  try {
    const sandbox = new CodeSandbox(job.code, job.mode, job.limits);
    await loadQuickJS(sandbox.limits.memoryLimitBytes);
    port!.postMessage({ id: job.id, type: 'started' } satisfies WorkerAnswer);
    const result = await sandbox.runBatch(job.records, { vars: job.vars });
    return { id: job.id, type: 'done', result };
  } catch (err) {
    if (err instanceof SandboxError)
      return { id: job.id, type: 'failed', error: { code: err.code, values: err.values, recordIndex: err.recordIndex, line: err.line } };
    return { id: job.id, type: 'failed', error: { code: 'crashed', values: { message: err instanceof Error ? err.message.slice(0, 200) : 'unknown' } } };
  }
}
