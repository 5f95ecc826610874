import type { JsonValue } from '../../engine/datasets';
import { startLlmServer, textOf, type LlmServer } from '../../test/llm-server';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { workflowClient } from '../../test/workflow-helpers';
import { AiAnswerCache } from './ai-answer-cache';

/*
 * The AI steps through the API and the run engine (in-process queue, real DuckDB, the real
 * database), the model being the OpenAI-compatible stand-in over real HTTP: answers land in the
 * step's dataset, tokens in usage once per record, the answer cache spares a rerun every call,
 * failed records are retried alone, and without a model the step fails saying so.
 */
describe('AI steps in runs', () => {
  let llm: LlmServer;
  let t: TestApp;
  let bare: TestApp;

  beforeAll(async () => {
    llm = await startLlmServer();
    t = await createTestApp({ IN_PROCESS_WORKER: 'true', ...llm.env });
    bare = await createTestApp({ IN_PROCESS_WORKER: 'true' });
  });
  afterAll(async () => {
    await t?.close();
    await bare?.close();
    await llm?.close();
  });
  beforeEach(() => {
    llm.requests.length = 0;
    llm.embeddings.length = 0;
  });

  async function setUp(app: TestApp) {
    const user = await signedInUser(app.app);
    const wf = workflowClient(app.app, user.auth);
    const api = (method: string, url: string, payload?: object) =>
      app.app.inject({ method: method as 'GET', url: `/api/v1${url}`, headers: user.auth, payload });
    const finished = async (runId: string) => {
      for (let i = 0; i < 1200; i++) {
        const run = (await api('GET', `/workflow-runs/${runId}`)).json();
        if (['succeeded', 'failed', 'cancelled'].includes(run.state)) return run;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('run did not finish');
    };
    const execute = async (workflowId: string, stepId: string) =>
      finished((await api('POST', `/workflow-execution/${workflowId}/steps/${stepId}/execute`, {})).json().id);
    const records = async (datasetId: string) => (await api('GET', `/datasets/${datasetId}/records?page_size=100`)).json().items as Record<string, unknown>[];
    const table = async (workflowId: string) =>
      wf.addStep(workflowId, 'table_input', {
        param_inputs: { columns: [{ name: 'review', type: 'text' }], rows: [['Great product'], [null], ['很好用 👍'], ['Broken on arrival'], ['']] },
      });
    return { user, wf, api, execute, records, table };
  }

  it('answers each record into the dataset, records tokens once per record, and a rerun calls the model 0 times', async () => {
    const { user, wf, execute, records, table } = await setUp(t);
    const workflowId = (await wf.createWorkflow('Reviews')).id;
    const source = await table(workflowId);
    const prompt = await wf.addStep(workflowId, 'ai_prompt', { inputs: [source.id], param_inputs: { prompt: 'Reply to {{field.review}}', concurrency: 1 } });
    const first = await execute(workflowId, prompt.id);
    expect(first.state).toBe('succeeded');
    const stepRun = first.step_runs[1];
    expect(stepRun).toMatchObject({ state: 'succeeded', records_total: 5, records_failed: 0 });
    const rows = await records(stepRun.output_dataset_id);
    expect(rows.map((r) => [r.review, r.ai_answer, r.ai_error])).toEqual([
      ['Great product', 'Echo: Reply to <data field="review">Great product</data>', null],
      [null, 'Echo: Reply to <data field="review"></data>', null],
      ['很好用 👍', 'Echo: Reply to <data field="review">很好用 👍</data>', null],
      ['Broken on arrival', 'Echo: Reply to <data field="review">Broken on arrival</data>', null],
      ['', 'Echo: Reply to <data field="review"></data>', null],
    ]);
    // null and '' ask the same question: four calls for five records.
    expect(llm.requests).toHaveLength(4);
    const usage = await t.app.db.selectFrom('usage_events').select(['kind', 'quantity', 'idempotency_key']).where('ref_id', '=', stepRun.id).execute();
    expect(usage.filter((u) => u.kind === 'ai_tokens_in')).toHaveLength(4);
    expect(usage.filter((u) => u.kind === 'ai_tokens_out')).toHaveLength(4);
    expect(new Set(usage.map((u) => u.idempotency_key)).size).toBe(8);
    // Charged: the four records the model answered (1 credit each) and their tokens, in one batch.
    const charged = await t.app.db.selectFrom('credit_ledger').select(['unit', 'quantity']).where('step_run_id', '=', stepRun.id).orderBy('unit').execute();
    const tokens = usage.reduce((n, u) => n + Number(u.quantity), 0);
    expect(charged.map((c) => [c.unit, Number(c.quantity)])).toEqual([
      ['record', 4],
      ['token', tokens],
    ]);

    // The same prompt over the same records, in a new run: every answer from the cache.
    llm.requests.length = 0;
    const prompt2 = await wf.addStep(workflowId, 'ai_prompt', {
      inputs: [source.id],
      param_inputs: { prompt: 'Reply to {{field.review}}', output_column: 'again' },
    });
    const second = await execute(workflowId, prompt2.id);
    expect(second.state).toBe('succeeded');
    expect(llm.requests).toHaveLength(0);
    const rerun = second.step_runs.find((s: { step_id: string }) => s.step_id === prompt2.id);
    expect((await records(rerun.output_dataset_id)).map((r) => r.again)).toEqual(rows.map((r) => r.ai_answer));
    const cachedUsage = await t.app.db.selectFrom('usage_events').select('kind').where('ref_id', '=', rerun.id).execute();
    expect(cachedUsage).toEqual([]);
    // Answers already paid for cost nothing again.
    expect(await t.app.db.selectFrom('credit_ledger').select('id').where('step_run_id', '=', rerun.id).execute()).toEqual([]);
    const cached = await t.app.db
      .selectFrom('ai_answer_cache')
      .select(['model_id'])
      .where('user_id', '=', user.user.id as string)
      .execute();
    expect(cached).toHaveLength(4);
    expect(cached[0].model_id).toMatch(/^openai-compatible:stand-in-chat@127\.0\.0\.1:/);
  });

  it('keeps an answer that stays invalid as that record’s failure, and “retry failed records” redoes only it', async () => {
    const { wf, api, execute, records, table } = await setUp(t);
    const workflowId = (await wf.createWorkflow('Extract')).id;
    const source = await table(workflowId);
    llm.setDefault((r) => {
      const text = textOf(r.messages.filter((m) => m.role === 'user').at(-1)?.content);
      return {
        text: text.includes('Broken') || text.includes('not valid') ? '{"mood": 3}' : JSON.stringify({ mood: text.includes('Great') ? 'happy' : 'other' }),
      };
    });
    const extract = await wf.addStep(workflowId, 'ai_extract', {
      inputs: [source.id],
      param_inputs: { column: 'review', fields: [{ name: 'mood', type: 'text' }] },
    });
    const first = await execute(workflowId, extract.id);
    const stepRun = first.step_runs[1];
    expect(stepRun).toMatchObject({ state: 'succeeded', records_failed: 1 });
    const rows = await records(stepRun.output_dataset_id);
    expect(rows.map((r) => [r.review, r.mood])).toEqual([
      ['Great product', 'happy'],
      [null, null],
      ['很好用 👍', 'other'],
      ['Broken on arrival', null],
      ['', null],
    ]);
    expect(rows[3].extract_error).toMatch(/stayed invalid after one repair/);
    expect(llm.requests).toHaveLength(4);

    llm.requests.length = 0;
    llm.setDefault(() => ({ text: '{"mood": "angry"}' }));
    await api('POST', `/step-runs/${stepRun.id}/control`, { action: 'retry_failed_records' });
    for (let i = 0; i < 400; i++) {
      const run = (await api('GET', `/workflow-runs/${first.id}`)).json();
      if (run.step_runs[1].state === 'succeeded' && run.step_runs[1].records_failed === 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const again = (await api('GET', `/workflow-runs/${first.id}`)).json();
    expect(again.step_runs[1]).toMatchObject({ state: 'succeeded', records_failed: 0 });
    expect(llm.requests).toHaveLength(1);
    expect((await records(again.step_runs[1].output_dataset_id)).map((r) => r.mood)).toEqual(['happy', null, 'other', 'angry', null]);
    llm.setDefault((r) => ({ text: `Echo: ${textOf(r.messages.at(-1)?.content)}` }));
  });

  it('writes embeddings as a DOUBLE[] column, one call per batch', async () => {
    const { wf, execute, records, table, api } = await setUp(t);
    const workflowId = (await wf.createWorkflow('Vectors')).id;
    const source = await table(workflowId);
    const embed = await wf.addStep(workflowId, 'ai_embed', { inputs: [source.id], param_inputs: { column: 'review', model: 'stand-in-embed' } });
    const run = await execute(workflowId, embed.id);
    expect(run.state).toBe('succeeded');
    expect(llm.embeddings).toEqual([['Great product', '很好用 👍', 'Broken on arrival']]);
    const rows = await records(run.step_runs[1].output_dataset_id);
    expect(rows.map((r) => (Array.isArray(r.embedding) ? r.embedding.length : r.embedding))).toEqual([8, null, 8, 8, null]);
    const dataset = (await api('GET', `/datasets/${run.step_runs[1].output_dataset_id}`)).json();
    expect(dataset.columns).toEqual(expect.arrayContaining([{ name: 'embedding', type: 'DOUBLE[]' }]));
  });

  it('fails the step with the no-model message when no model is configured, calling nothing', async () => {
    const { wf, execute, table } = await setUp(bare);
    const workflowId = (await wf.createWorkflow('No model')).id;
    const source = await table(workflowId);
    const classify = await wf.addStep(workflowId, 'ai_classify', { inputs: [source.id], param_inputs: { column: 'review', labels: ['good', 'bad'] } });
    const run = await execute(workflowId, classify.id);
    expect(run.state).toBe('failed');
    expect(run.step_runs[1].state).toBe('failed');
    expect(JSON.stringify(run.step_runs[1].error)).toContain('No AI model is connected.');
    expect(llm.requests).toHaveLength(0);
  });

  it('prunes the cache by age and by count, per owner', async () => {
    const { user } = await setUp(t);
    const other = await signedInUser(t.app);
    const mine = new AiAnswerCache(t.app.db, user.user.id as string);
    const theirs = new AiAnswerCache(t.app.db, other.user.id as string);
    const entry = (key: string, answer: JsonValue) => ({ key, modelId: 'm', answer, stepRunId: null, recordId: null, tokensIn: 0, tokensOut: 0 });
    await mine.put([entry('old', 'a')]);
    await t.app.db
      .updateTable('ai_answer_cache')
      .set({ created_at: new Date(Date.now() - 40 * 24 * 3600_000).toISOString() })
      .where('cache_key', '=', 'old')
      .execute();
    for (const key of ['k1', 'k2', 'k3']) {
      await mine.put([entry(key, { key })]);
      await new Promise((r) => setTimeout(r, 5));
    }
    await theirs.put([entry('k1', 'theirs')]);
    expect(await mine.prune({ maxEntries: 2 })).toBe(2);
    expect([...(await mine.get(['old', 'k1', 'k2', 'k3'])).keys()].sort()).toEqual(['k2', 'k3']);
    expect((await theirs.get(['k1'])).get('k1')?.answer).toBe('theirs');
    // Storing a key again replaces its answer.
    await mine.put([{ ...entry('k2', [1, 2]), stepRunId: 'sr', recordId: 'r9', tokensIn: 7, tokensOut: 3 }]);
    expect((await mine.get(['k2'])).get('k2')).toEqual({ answer: [1, 2], stepRunId: 'sr', recordId: 'r9', tokensIn: 7, tokensOut: 3 });
  });
});
