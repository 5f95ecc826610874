import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type DatabaseHandle } from '../../db/database';
import { AI_BATCH_SIZE } from '../../engine/runners/per-record/ai';
import { startLlmServer, textOf, type LlmServer } from '../../test/llm-server';
import { onPostgres } from '../../test/test-app';
import { freePort, httpCall, isAlive, recordsOf, runFinished, signIn, startProcess, waitFor, type ServerProcess } from '../../test/crash-support';

/**
 * An AI step killed with SIGKILL in the middle of a run (embedded install: SQLite, in-process
 * queue), the model being the stand-in in this test's process, which outlives the server: the
 * next start takes the run up again, and no record of a batch finished before the kill is sent to
 * the model again (paid calls are never repeated for stored work).
 */
const describeEmbedded = onPostgres() ? describe.skip : describe;
const RECORDS = 200;

describeEmbedded('an AI step killed in the middle of a run', () => {
  let dataDir: string;
  let llm: LlmServer;
  let server: ServerProcess | null = null;
  let db: DatabaseHandle | null = null;
  let port = 0;
  const call = httpCall(() => `http://127.0.0.1:${port}`);

  async function startServer(): Promise<ServerProcess> {
    port = await freePort();
    const started = startProcess('server.ts', {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      IN_PROCESS_WORKER: 'true',
      WEB_DIR: path.join(dataDir, 'no-web-app'),
      ...llm.env,
      // Billing on (with the local test checkout), so what the model answered is charged and counted.
      BILLING_ENABLED: 'true',
      STRIPE_TEST_CHECKOUT: 'true',
      BILLING_SIGNUP_CREDITS: String(RECORDS * 2),
    });
    await waitFor(`the server to listen${started.stderr() ? `: ${started.stderr()}` : ''}`, async () => {
      if (!isAlive(started)) throw new Error(`the server exited: ${started.stderr()}`);
      return fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`).then(
        (res) => (res.ok ? true : undefined),
        () => undefined,
      );
    });
    return started;
  }

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-ai-crash-'));
    llm = await startLlmServer();
    // Each answer takes a while, so the step can be killed between batches.
    llm.setDefault((r) => ({ text: `Answer to ${/review (\d+)/.exec(textOf(r.messages.at(-1)?.content))?.[1] ?? '?'}`, delayMs: 60 }));
  });

  afterAll(async () => {
    await server?.kill('SIGKILL');
    await db?.close();
    await llm?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // Over Jest’s 5 s: starts a real server process, kills it mid-run and starts another (14 s on a loaded 2-core machine).
  it('resumes after a restart without calling the model again for records of finished batches', async () => {
    server = await startServer();
    const auth = await signIn(call);
    const ok = async (method: string, url: string, payload?: object) => {
      const res = await call(method, url, payload, auth);
      if (res.status >= 300) throw new Error(`${method} ${url} → ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const workflowId = (await ok('POST', '/workflows', { name: 'AI crash' })).id as string;
    const table = await ok('POST', '/workflow-steps', {
      workflow_id: workflowId,
      step_type: 'table_input',
      inputs: [],
      param_inputs: {
        columns: [
          { name: 'n', type: 'integer' },
          { name: 'review', type: 'text' },
        ],
        rows: Array.from({ length: RECORDS }, (_, i) => [i, `review ${i}`]),
      },
    });
    const prompt = await ok('POST', '/workflow-steps', {
      workflow_id: workflowId,
      step_type: 'ai_prompt',
      inputs: [table.id],
      param_inputs: { prompt: 'Reply to {{field.review}}', concurrency: 2 },
    });
    const started = await ok('POST', `/workflow-execution/${workflowId}/steps/${prompt.id}/execute?mode=all`, {});
    const runId = started.id as string;
    const aiRunId = (started.step_runs as { id: string; step_id: string }[]).find((s) => s.step_id === prompt.id)!.id;

    const first = server;
    await waitFor('the AI step to finish some batches', async () => {
      if (!isAlive(first)) throw new Error('the server died before it was killed');
      const progress = (await call('GET', `/step-runs/${aiRunId}/progress`, undefined, auth)).body;
      if (progress.state !== 'running')
        return progress.state === 'queued' ? undefined : Promise.reject(new Error(`the AI step is ${progress.state} before the kill`));
      // Two batches stored, and a few answers of the next one received but not stored yet
      // (cached, their tokens still in memory): the case that must neither call again nor go unpaid.
      return progress.records_done >= 2 * AI_BATCH_SIZE && llm.requests.length >= progress.records_done + 5 ? progress : undefined;
    });
    await first.kill('SIGKILL');

    db = openDatabase({ databaseUrl: null, sqliteFile: path.join(dataDir, 'stepwise.db') });
    const finishedBefore = (await db.db.selectFrom('step_run_batches').select(['batch_no', 'state']).where('step_run_id', '=', aiRunId).execute())
      .filter((b) => b.state === 'succeeded')
      .map((b) => Number(b.batch_no));
    expect(finishedBefore.length).toBeGreaterThanOrEqual(2);
    expect(finishedBefore.length).toBeLessThan(RECORDS / AI_BATCH_SIZE);
    const callsBefore = llm.requests.length;

    server = await startServer();
    const second = server;
    const run = await runFinished(call, auth, runId, () => isAlive(second));
    expect(run.state).toBe('succeeded');

    // Every record answered once in the output, in order.
    const aiRun = run.step_runs.find((s: { id: string }) => s.id === aiRunId);
    const output = await recordsOf(call, auth, aiRun.output_dataset_id);
    expect(output.map((r) => r.n)).toEqual(Array.from({ length: RECORDS }, (_, i) => i));
    expect(output.map((r) => r.ai_answer)).toEqual(Array.from({ length: RECORDS }, (_, i) => `Answer to ${i}`));

    // What the model received, per record.
    const askedFor = new Map<number, number>();
    for (const r of llm.requests) {
      const n = Number(/review (\d+)/.exec(textOf(r.messages.at(-1)?.content))![1]);
      askedFor.set(n, (askedFor.get(n) ?? 0) + 1);
    }
    expect(askedFor.size).toBe(RECORDS);
    // Records of the batches stored before the kill: asked exactly once, before it.
    for (const no of finishedBefore) {
      for (let n = no * AI_BATCH_SIZE; n < (no + 1) * AI_BATCH_SIZE; n++) expect([n, askedFor.get(n)]).toEqual([n, 1]);
    }
    // Only calls cut by the kill may have been made again (their answers never arrived): at most one per call in flight.
    const repeated = [...askedFor.values()].filter((count) => count > 1).length;
    expect(repeated).toBeLessThanOrEqual(2);
    expect(llm.requests.length).toBeLessThanOrEqual(RECORDS + 2);
    expect(llm.requests.length).toBeGreaterThan(callsBefore);

    // Tokens were recorded once per answered record, whatever was redone: answers cached before
    // the kill but whose batch was not stored are paid by the resumed batch (same record keys).
    const usage = await db.db.selectFrom('usage_events').select(['kind', 'idempotency_key']).where('ref_id', '=', aiRunId).execute();
    expect(usage.filter((u) => u.kind === 'ai_tokens_in')).toHaveLength(RECORDS);
    expect(new Set(usage.map((u) => u.idempotency_key)).size).toBe(usage.length);
    // And charged once: one credit per answered record, whatever batch was redone.
    const charged = await db.db
      .selectFrom('credit_ledger')
      .select(['unit', 'quantity'])
      .where('step_run_id', '=', aiRunId)
      .where('unit', '=', 'record')
      .execute();
    expect(charged.reduce((n, r) => n + Number(r.quantity), 0)).toBe(RECORDS);
  }, 90_000);
});
