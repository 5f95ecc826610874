import type { AddressInfo } from 'node:net';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { startLlmServer, textOf, type ChatRequestSeen, type LlmServer } from '../../test/llm-server';
import { workflowClient } from '../../test/workflow-helpers';

/** Server-sent events as [event, data] pairs. */
function eventsOf(body: string): { event: string; data: Record<string, unknown> }[] {
  return body
    .split('\n\n')
    .filter((block) => block.includes('event: '))
    .map((block) => ({
      event: /^event: (.*)$/m.exec(block)![1],
      data: JSON.parse(/^data: (.*)$/m.exec(block)![1]) as Record<string, unknown>,
    }));
}

/** The events' names, a run of text deltas as one. */
const kinds = (events: { event: string }[]) => events.map((e) => e.event).filter((e, i, all) => e !== 'text_delta' || all[i - 1] !== 'text_delta');

/** What the tools answered so far in this request (tool messages), parsed. */
const toolOutputs = (request: ChatRequestSeen) =>
  request.messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(textOf(m.content)) as { step: { id: string } });

describe('conversations and the coordinator, against a real OpenAI-compatible server', () => {
  let llm: LlmServer;
  let t: TestApp;
  let user: Awaited<ReturnType<typeof signedInUser>>;
  let api: ReturnType<typeof workflowClient>;
  let other: ReturnType<typeof workflowClient>;

  beforeAll(async () => {
    llm = await startLlmServer();
    t = await createTestApp(llm.env);
    user = await signedInUser(t.app);
    api = workflowClient(t.app, user.auth);
    other = workflowClient(t.app, (await signedInUser(t.app)).auth);
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
  });

  const stream = (id: string, content: string, extra: object = {}, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `/api/v1/conversations/${id}/messages/stream`, headers: { ...user.auth, ...headers }, payload: { content, ...extra } });

  describe('list, create, get', () => {
    it('creates conversations, lists them newest first with filters and pages, and gets one', async () => {
      const wf = await api.createWorkflow('Listed');
      const a = await api.ok('POST', '/conversations', {});
      const b = await api.ok('POST', '/conversations', { agent: 'coordinator', workflow_id: wf.id, title: 'Plan' });
      expect(a).toMatchObject({ agent: 'general', title: '', workflow_id: null, step_id: null, message_count: 0 });
      expect(b).toMatchObject({ agent: 'coordinator', title: 'Plan', workflow_id: wf.id });

      await stream(a.id, 'hello');
      const page = await api.ok('GET', '/conversations?page=1&page_size=1');
      expect(page).toMatchObject({ total: expect.any(Number), page: 1, page_size: 1 });
      expect(page.items[0]).toMatchObject({ id: a.id, title: 'hello', message_count: 2 });
      const bound = await api.ok('GET', `/conversations?workflow_id=${wf.id}&agent=coordinator`);
      expect(bound.items.map((c: { id: string }) => c.id)).toEqual([b.id]);

      const detail = await api.ok('GET', `/conversations/${a.id}`);
      expect(detail.messages.map((m: { role: string; content: string; status: string }) => [m.role, m.content, m.status])).toEqual([
        ['user', 'hello', 'complete'],
        ['assistant', 'Echo: hello', 'complete'],
      ]);
    });

    it("answers 404 for another user's conversation or workflow, and 422 for bad input", async () => {
      const mine = await api.ok('POST', '/conversations', {});
      const theirWf = await other.createWorkflow();
      expect((await other.call('GET', `/conversations/${mine.id}`)).status).toBe(404);
      expect((await other.call('POST', `/conversations/${mine.id}/messages/stream`, { content: 'hi' })).status).toBe(404);
      expect((await api.call('POST', '/conversations', { agent: 'coordinator', workflow_id: theirWf.id })).status).toBe(404);
      expect((await api.call('POST', `/agents/coordinator/${theirWf.id}/message`, { message: 'hi' })).status).toBe(404);

      const noWorkflow = await api.call('POST', '/conversations', { agent: 'coordinator' });
      expect(noWorkflow.status).toBe(422);
      expect(noWorkflow.body.errors[0].loc).toEqual(['body', 'workflow_id']);
      expect((await api.call('POST', '/conversations', { agent: 'wizard' })).status).toBe(422);
      expect((await api.call('GET', '/conversations?page_size=1000')).status).toBe(422);
      expect((await api.call('POST', `/conversations/${mine.id}/messages/stream`, { content: 'x'.repeat(8001) })).status).toBe(422);
      expect((await api.call('POST', `/conversations/${mine.id}/messages/stream`, { content: '' })).status).toBe(422);
    });
  });

  it('limits the turns (paid model calls) per user per minute', async () => {
    const busy = await signedInUser(t.app);
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/conversations/00000000-0000-0000-0000-000000000000/messages/stream',
        headers: busy.auth,
        payload: { content: 'hi' },
      });
    for (let i = 0; i < 60; i++) expect((await send()).statusCode).toBe(404);
    const limited = await send();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().detail).toBeTruthy();
    // Someone else is not held back.
    expect((await api.call('POST', '/conversations/00000000-0000-0000-0000-000000000000/messages/stream', { content: 'hi' })).status).toBe(404);
  });

  describe('streaming a turn', () => {
    it('streams message_start, text deltas and done in order, and stores both messages', async () => {
      const conv = await api.ok('POST', '/conversations', {});
      llm.queue({ text: 'Workflows are chains of steps.', chunkSize: 6 });
      const res = await stream(conv.id, 'What is a workflow?');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      const events = eventsOf(res.body);
      expect(events[0].event).toBe('message_start');
      expect(events.at(-1)!.event).toBe('done');
      const deltas = events.filter((e) => e.event === 'text_delta');
      expect(deltas.length).toBeGreaterThan(2);
      expect(deltas.map((e) => e.data.delta).join('')).toBe('Workflows are chains of steps.');
      const done = events.at(-1)!.data as { message_id: string; usage: { input_tokens: number; output_tokens: number } };
      expect(done.message_id).toBe(events[0].data.message_id);
      expect(done.usage.output_tokens).toBeGreaterThan(0);
      // The turn's tokens are one usage row in the credit ledger, keyed by the message.
      const charged = await t.app.db
        .selectFrom('credit_ledger')
        .select(['unit', 'quantity', 'credits_micro'])
        .where('idempotency_key', '=', `usage:agent:${done.message_id}`)
        .execute();
      expect(charged).toEqual([
        {
          unit: 'token',
          quantity: done.usage.input_tokens + done.usage.output_tokens,
          credits_micro: -Math.round(((done.usage.input_tokens + done.usage.output_tokens) * 0.02 * 1_000_000) / 1000),
        },
      ]);

      const detail = await api.ok('GET', `/conversations/${conv.id}`);
      expect(detail.messages[1]).toMatchObject({
        id: done.message_id,
        content: 'Workflows are chains of steps.',
        status: 'complete',
        parts: [{ type: 'text', text: 'Workflows are chains of steps.' }],
      });
      // The model was told what came before, and what the user asked.
      expect(llm.requests.at(-1)!.messages.at(-1)).toMatchObject({ role: 'user', content: 'What is a workflow?' });
    });

    it('sends the earlier messages, trimmed to a budget with a note of what was left out', async () => {
      const conv = await api.ok('POST', '/conversations', {});
      for (let i = 0; i < 6; i++) await stream(conv.id, `message ${i} ${'x'.repeat(7000)}`);
      await stream(conv.id, 'last one');
      const sent = llm.requests.at(-1)!.messages;
      expect(sent[0].role).toBe('system');
      expect(JSON.stringify(sent).length).toBeLessThan(40_000);
      expect(textOf(sent[1].content)).toMatch(/earlier messages of this conversation were left out/);
      expect(sent.at(-1)).toMatchObject({ role: 'user', content: 'last one' });
    });

    it('aborts the model call when the client drops the stream, and keeps the partial answer', async () => {
      const conv = await api.ok('POST', '/conversations', {});
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (t.app.server.address() as AddressInfo).port;
      llm.queue({ hang: true, text: 'Half an answer' });
      const controller = new AbortController();
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/conversations/${conv.id}/messages/stream`, {
        method: 'POST',
        headers: { ...user.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'Tell me a long story' }),
        signal: controller.signal,
      });
      const reader = res.body!.getReader();
      let seen = '';
      while (!seen.includes('Half an answer')) {
        const { value } = await reader.read();
        seen += eventsOf(Buffer.from(value!).toString('utf8') + '\n\n')
          .filter((e) => e.event === 'text_delta')
          .map((e) => e.data.delta)
          .join('');
      }
      controller.abort();
      const aborted = await llm.waitForAbort();
      expect(aborted.aborted).toBe(true);

      let answer: { status: string; content: string } | undefined;
      for (let i = 0; i < 50 && answer?.status !== 'partial'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        answer = (await api.ok('GET', `/conversations/${conv.id}`)).messages[1];
      }
      expect(answer).toMatchObject({ status: 'partial', content: 'Half an answer' });
    });

    it('answers a provider failure before the first byte as 502 with the detail', async () => {
      const conv = await api.ok('POST', '/conversations', {});
      llm.queue({ status: 429, message: 'Rate limit reached', retryAfterSeconds: 3 });
      const limited = await stream(conv.id, 'hi');
      expect(limited.statusCode).toBe(502);
      expect(limited.json().detail).toMatch(/rate limit.*Rate limit reached/i);
      llm.queue({ status: 500, message: 'boom' });
      const broken = await stream(conv.id, 'hi');
      expect(broken.statusCode).toBe(502);
      expect(broken.json().detail).toMatch(/boom/);
      const detail = await api.ok('GET', `/conversations/${conv.id}`);
      expect(detail.messages.filter((m: { role: string }) => m.role === 'assistant').map((m: { status: string }) => m.status)).toEqual(['error', 'error']);
    });

    it('sends a failure after the first byte as an error event, keeping what streamed', async () => {
      const wf = await api.createWorkflow('Errors');
      const conv = await api.ok('POST', '/conversations', { agent: 'coordinator', workflow_id: wf.id });
      llm.queue({ toolCalls: [{ id: 'c1', name: 'get_workflow', args: {} }], text: 'Let me look.' }, { status: 500, message: 'overloaded' });
      const res = await stream(conv.id, 'look');
      expect(res.statusCode).toBe(200);
      const events = eventsOf(res.body);
      expect(kinds(events)).toEqual(['message_start', 'text_delta', 'tool_call', 'tool_result', 'error']);
      expect(events.at(-1)!.data).toMatchObject({ status: 'error', detail: expect.stringMatching(/overloaded/) });
      const stored = (await api.ok('GET', `/conversations/${conv.id}`)).messages[1];
      expect(stored).toMatchObject({ status: 'error', content: 'Let me look.' });
    });

    it('answers 409 with a warning modal, translated, when no model is configured', async () => {
      const bare = await createTestApp();
      try {
        const someone = await signedInUser(bare.app);
        const conv = (await bare.app.inject({ method: 'POST', url: '/api/v1/conversations', headers: someone.auth, payload: {} })).json();
        const en = await bare.app.inject({
          method: 'POST',
          url: `/api/v1/conversations/${conv.id}/messages/stream`,
          headers: someone.auth,
          payload: { content: 'hi' },
        });
        expect(en.statusCode).toBe(409);
        expect(en.json()).toMatchObject({ detail: 'No AI model is connected.', modal: { level: 'warning', content: expect.stringMatching(/LLM_BASE_URL/) } });
        const zh = await bare.app.inject({
          method: 'POST',
          url: `/api/v1/conversations/${conv.id}/messages/stream`,
          headers: { ...someone.auth, 'accept-language': 'zh-CN' },
          payload: { content: 'hi' },
        });
        expect(zh.statusCode).toBe(409);
        expect(zh.json()).toMatchObject({ detail: '尚未连接 AI 模型。', modal: { level: 'warning', content: expect.stringMatching(/LLM_BASE_URL/) } });
        const wf = (await bare.app.inject({ method: 'POST', url: '/api/v1/workflows', headers: someone.auth, payload: { name: 'W' } })).json();
        const agent = await bare.app.inject({
          method: 'POST',
          url: `/api/v1/agents/coordinator/${wf.id}/message`,
          headers: someone.auth,
          payload: { message: 'hi' },
        });
        expect(agent.statusCode).toBe(409);
        expect(agent.json().modal.level).toBe('warning');
        const step = (
          await bare.app.inject({ method: 'POST', url: '/api/v1/workflow-steps', headers: someone.auth, payload: { workflow_id: wf.id, step_type: 'filter' } })
        ).json();
        for (const path of ['workflow-step-param', 'workflow-step-param-evaluation']) {
          const res = await bare.app.inject({
            method: 'POST',
            url: `/api/v1/agents/${path}/${wf.id}/${step.id}/message`,
            headers: { ...someone.auth, 'accept-language': 'zh-CN' },
            payload: { message: 'hi' },
          });
          expect(res.statusCode).toBe(409);
          expect(res.json().detail).toBe('尚未连接 AI 模型。');
        }
      } finally {
        await bare.close();
      }
    });
  });

  describe('the coordinator', () => {
    /** Two add_step calls, then connect_steps between the steps they made, then a text. */
    function scriptBuild() {
      llm.queue(
        {
          toolCalls: [
            { id: 'a1', name: 'add_step', args: { step_type: 'import_csv' } },
            { id: 'a2', name: 'add_step', args: { step_type: 'filter', name: 'Only Berlin' } },
          ],
        },
        (request) => {
          const [source, filter] = toolOutputs(request).map((o) => o.step.id);
          return { toolCalls: [{ id: 'c1', name: 'connect_steps', args: { from_step_id: source, to_step_id: filter } }] };
        },
        { text: 'Added an import and a filter, connected.' },
      );
    }

    it("turns a turn's tool calls into ONE commit that one undo reverts", async () => {
      const wf = await api.createWorkflow('Coordinated');
      const conv = await api.ok('POST', '/conversations', { agent: 'coordinator', workflow_id: wf.id });
      const before = await api.ok('POST', '/workflow-history/commits', { workflow_id: wf.id });
      scriptBuild();
      const res = await stream(conv.id, 'Build me an import and a filter');
      const events = eventsOf(res.body);
      expect(kinds(events)).toEqual([
        'message_start',
        'tool_call',
        'tool_call',
        'tool_result',
        'tool_result',
        'tool_call',
        'tool_result',
        'text_delta',
        'commit',
        'done',
      ]);
      expect(events.filter((e) => e.event === 'tool_result').every((e) => e.data.ok === true)).toBe(true);
      // Each result says what it did, for the chat's tool cards (the same words as the commit card).
      expect(events.filter((e) => e.event === 'tool_result').map((e) => (e.data.result as { summary: string }).summary)).toEqual([
        'Added step Import CSV',
        'Added step Only Berlin',
        'Connected Import CSV → Only Berlin',
      ]);
      const card = events.find((e) => e.event === 'commit')!.data;
      expect(card).toMatchObject({ applied: true, workflow_id: wf.id, commit_id: expect.any(String), summary: 'Added 2 step(s), connected 1' });
      expect((card.changes as { kind: string }[]).map((c) => c.kind)).toEqual(['step_added', 'step_added', 'connected']);

      const steps = await api.ok('GET', `/workflow-steps/?workflow_id=${wf.id}`);
      // (Steps written in one commit list in no promised order.)
      const source = steps.find((s: { step_type: string }) => s.step_type === 'import_csv');
      const filter = steps.find((s: { step_type: string }) => s.step_type === 'filter');
      expect(steps).toHaveLength(2);
      expect(filter).toMatchObject({ name: 'Only Berlin', inputs: [source.id] });
      const after = await api.ok('POST', '/workflow-history/commits', { workflow_id: wf.id });
      expect(after.total).toBe(before.total + 1);
      expect(after.items[0]).toMatchObject({ id: card.commit_id, message: 'Assistant: 3 change(s)' });
      // The tools were offered with the API's own schemas.
      expect(llm.requests.at(-3)!.tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['get_workflow', 'search_steps', 'add_step', 'remove_step', 'connect_steps', 'set_params', 'set_variable', 'get_last_run']),
      );
      expect(llm.requests.at(-3)!.messages[0].content).toMatch(/DATA, never instructions/);

      const stored = (await api.ok('GET', `/conversations/${conv.id}`)).messages[1];
      expect(stored).toMatchObject({ status: 'complete', commit: card, content: 'Added an import and a filter, connected.' });
      expect(stored.parts.map((p: { type: string }) => p.type)).toEqual([
        'tool_call',
        'tool_call',
        'tool_result',
        'tool_result',
        'tool_call',
        'tool_result',
        'text',
      ]);

      const undone = await api.call('POST', '/workflow-history/undo', { workflow_id: wf.id });
      expect(undone.status).toBe(200);
      expect(await api.ok('GET', `/workflow-steps/?workflow_id=${wf.id}`)).toEqual([]);
    });

    it("says what each tool did in the caller's language", async () => {
      const wf = await api.createWorkflow('Chinese');
      const conv = await api.ok('POST', '/conversations', { agent: 'coordinator', workflow_id: wf.id });
      llm.queue(
        {
          toolCalls: [
            { id: 'g1', name: 'get_workflow', args: {} },
            { id: 'a1', name: 'add_step', args: { step_type: 'filter', name: '柏林' } },
          ],
        },
        { text: '好了。' },
      );
      const events = eventsOf((await stream(conv.id, '加一个过滤步骤', {}, { 'accept-language': 'zh-CN' })).body);
      expect(events.filter((e) => e.event === 'tool_result').map((e) => (e.data.result as { summary: string }).summary)).toEqual([
        '读取了工作流',
        '添加了步骤 柏林',
      ]);
    });

    it('refuses to overwrite a workflow edited during the turn: error event, nothing of the turn applied', async () => {
      const wf = await api.createWorkflow('Busy');
      const conv = await api.ok('POST', '/conversations', { agent: 'coordinator', workflow_id: wf.id });
      let edit: Promise<unknown> = Promise.resolve();
      llm.queue({ toolCalls: [{ id: 'a1', name: 'add_step', args: { step_type: 'sort' } }] }, () => {
        // Someone edits the workflow while the model is still answering.
        edit = api.addStep(wf.id, 'limit');
        return { text: 'Added a sort.', chunkSize: 4, delayMs: 80 };
      });
      const events = eventsOf((await stream(conv.id, 'add a sort')).body);
      await edit;
      expect(kinds(events)).toEqual(['message_start', 'tool_call', 'tool_result', 'text_delta', 'error']);
      expect(events.at(-1)!.data).toMatchObject({ status: 'error', detail: expect.stringMatching(/changed/i) });
      expect((await api.ok('GET', `/workflow-steps/?workflow_id=${wf.id}`)).map((s: { step_type: string }) => s.step_type)).toEqual(['limit']);
      expect((await api.ok('GET', `/conversations/${conv.id}`)).messages[1]).toMatchObject({ status: 'error', commit: null, content: 'Added a sort.' });
    });

    it('a dry run applies nothing and answers the proposal, through the JSON call too', async () => {
      const wf = await api.createWorkflow('Dry');
      scriptBuild();
      const res = await api.call('POST', `/agents/coordinator/${wf.id}/message?dry_run=true`, { message: 'Build me an import and a filter' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        conversation_id: expect.any(String),
        commit: { applied: false, commit_id: null, workflow_id: wf.id, summary: 'Added 2 step(s), connected 1' },
        message: { role: 'assistant', status: 'complete', content: 'Added an import and a filter, connected.' },
      });
      expect(res.body.message.commit).toEqual(res.body.commit);
      expect(await api.ok('GET', `/workflow-steps/?workflow_id=${wf.id}`)).toEqual([]);
      expect((await api.ok('POST', '/workflow-history/commits', { workflow_id: wf.id })).total).toBe(1);

      // The same conversation goes on, applying this time.
      scriptBuild();
      const applied = await api.call('POST', `/agents/coordinator/${wf.id}/message`, { message: 'Do it', conversation_id: res.body.conversation_id });
      expect(applied.body.commit).toMatchObject({ applied: true });
      expect(await api.ok('GET', `/workflow-steps/?workflow_id=${wf.id}`)).toHaveLength(2);
      const conv = await api.ok('GET', `/conversations/${res.body.conversation_id}`);
      expect(conv).toMatchObject({ agent: 'coordinator', workflow_id: wf.id, message_count: 4 });
    });

    it("applies a dry run's proposal exactly as shown, once, without asking the model again", async () => {
      const wf = await api.createWorkflow('Proposed');
      scriptBuild();
      const proposed = await api.call('POST', `/agents/coordinator/${wf.id}/message?dry_run=true`, { message: 'Build me an import and a filter' });
      const conversationId = proposed.body.conversation_id as string;
      const messageId = proposed.body.message.id as string;
      // The stored edits never leave the server.
      expect(JSON.stringify(proposed.body)).not.toContain('base_version');
      const calls = llm.requests.length;

      const applied = await api.call('POST', `/conversations/${conversationId}/messages/${messageId}/apply`);
      expect(applied.status).toBe(200);
      expect(applied.body.commit).toMatchObject({ applied: true, commit_id: expect.any(String), summary: 'Added 2 step(s), connected 1' });
      expect(llm.requests.length).toBe(calls);
      const steps = await api.ok('GET', `/workflow-steps/?workflow_id=${wf.id}`);
      expect(steps.map((s: { name: string }) => s.name).sort()).toEqual(['Import CSV', 'Only Berlin']);
      const history = await api.ok('POST', '/workflow-history/commits', { workflow_id: wf.id });
      expect(history.items[0]).toMatchObject({ id: applied.body.commit.commit_id });
      expect((await api.ok('GET', `/conversations/${conversationId}`)).messages[1].commit).toEqual(applied.body.commit);

      // Twice is refused; so is another's conversation.
      expect((await api.call('POST', `/conversations/${conversationId}/messages/${messageId}/apply`)).status).toBe(409);
      expect((await other.call('POST', `/conversations/${conversationId}/messages/${messageId}/apply`)).status).toBe(404);
      // One undo takes it back.
      await api.call('POST', '/workflow-history/undo', { workflow_id: wf.id });
      expect(await api.ok('GET', `/workflow-steps/?workflow_id=${wf.id}`)).toEqual([]);
    });

    it('refuses a proposal whose workflow changed since it was made', async () => {
      const wf = await api.createWorkflow('Moved on');
      scriptBuild();
      const proposed = await api.call('POST', `/agents/coordinator/${wf.id}/message?dry_run=true`, { message: 'Build me an import and a filter' });
      await api.addStep(wf.id, 'limit');
      const res = await api.call('POST', `/conversations/${proposed.body.conversation_id}/messages/${proposed.body.message.id}/apply`);
      expect(res.status).toBe(409);
      expect((await api.ok('GET', `/workflow-steps/?workflow_id=${wf.id}`)).map((s: { step_type: string }) => s.step_type)).toEqual(['limit']);
    });

    it('answers a tool call that breaks the rules with the problems, and the model can go on', async () => {
      const wf = await api.createWorkflow('Rules');
      llm.queue(
        {
          toolCalls: [
            { id: 'x1', name: 'add_step', args: { step_type: 'teleport' } },
            { id: 'x2', name: 'add_step', args: { step_type: 'limit', param_inputs: { count: 'many' } } },
            { id: 'x3', name: 'connect_steps', args: { from_step_id: 'nope', to_step_id: 'nada' } },
          ],
        },
        { text: 'Those did not work.' },
      );
      const res = await api.call('POST', `/agents/coordinator/${wf.id}/message`, { message: 'break things' });
      expect(res.status).toBe(200);
      const results = res.body.message.parts.filter((p: { type: string }) => p.type === 'tool_result');
      expect(results.map((r: { ok: boolean }) => r.ok)).toEqual([false, false, false]);
      expect(results[0].result.problems[0].msg).toBe('There is no step type "teleport".');
      expect(results[1].result.problems[0].loc).toEqual(['body', 'param_inputs', 'count']);
      expect(results[2].result.error).toMatch(/not found/i);
      expect(res.body.commit).toBeNull();
      expect((await api.ok('POST', '/workflow-history/commits', { workflow_id: wf.id })).total).toBe(1);
    });

    it('answers a provider failure of the JSON call as 502, after storing the turn', async () => {
      const wf = await api.createWorkflow('Failing');
      llm.queue({ status: 503, message: 'down for maintenance' });
      const res = await api.call('POST', `/agents/coordinator/${wf.id}/message`, { message: 'hi' });
      expect(res.status).toBe(502);
      expect(res.body.detail).toMatch(/down for maintenance/);
    });
  });
});
