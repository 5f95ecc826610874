import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { StepOut } from '../../../server/src/modules/steps/steps.schemas';
import { api, testUser } from '../../test/handlers';
import { currentLocation, renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { info, workflowWith } from '../workflows/editor/editorFixtures';
import type { CommitCard, ConversationDetailOut, ConversationMessageOut, ConversationOut } from './conversationTypes';
import '../../test/opensEditor';

// Issue 7/8's chat screens against docs/agents.md: the editor's assistant tab streaming a turn
// (text as it arrives, tool cards, the commit card and its undo, stop, the no-model modal) and the
// conversations page.

const load: StepOut = { id: 's-1', workflow_id: 'w-1', step_type: 'import_csv', name: 'Load leads', param_inputs: {}, inputs: [], position: { x: 0, y: 0 } };
const catalogue = [info('import_csv', 'Import CSV', 'source', 0, 0), info('filter', 'Filter rows', 'transform', 1, 1)];

const conversation = (over: Partial<ConversationOut> = {}): ConversationOut => ({
  id: 'c-1',
  title: 'Build me a report',
  agent: 'coordinator',
  workflow_id: 'w-1',
  step_id: null,
  message_count: 0,
  created_at: '2026-11-23T10:00:00.000Z',
  updated_at: '2026-11-23T10:00:00.000Z',
  ...over,
});
const message = (over: Partial<ConversationMessageOut>): ConversationMessageOut => ({
  id: 'm-1',
  role: 'user',
  content: '',
  parts: [],
  status: 'complete',
  commit: null,
  usage: null,
  created_at: '2026-11-23T10:00:00.000Z',
  ...over,
});
const commitCard: CommitCard = {
  commit_id: 'k-2',
  workflow_id: 'w-1',
  applied: true,
  summary: 'Added 1 step(s)',
  changes: [{ kind: 'step_added', step_id: 's-2', label: 'Added step Filter rows' }],
};
const commitOf = (id: string, seq: number) => ({
  id,
  workflow_id: 'w-1',
  seq,
  kind: 'edit',
  message: `Commit ${seq}`,
  author: null,
  changes: [],
  created_at: '2026-11-23T10:00:00.000Z',
});

const encoder = new TextEncoder();
const sse = (type: string, data: object) => encoder.encode(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);

/** A stream the test writes into, event by event, as the server would. */
function openStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    response: () => new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } }),
    send: (type: string, data: object) => controller.enqueue(sse(type, data)),
    close: () => controller.close(),
  };
}

let workflowReads = 0;
/** The editor's world: workflow w-1, and its coordinator conversation with these messages. */
function serveEditor(messages: ConversationMessageOut[] = [], commits = [commitOf('k-2', 2), commitOf('k-1', 1)]) {
  workflowReads = 0;
  localStorage.setItem('accessToken', 'good');
  const detail: ConversationDetailOut = { ...conversation({ message_count: messages.length }), messages };
  server.use(
    http.get(api('/workflows/w-1'), () => {
      workflowReads++;
      return HttpResponse.json(workflowWith([load]));
    }),
    http.get(api('/workflow-step-infos'), () => HttpResponse.json({ items: catalogue, total: 2, page: 1, page_size: 200, ranking: 'text' })),
    http.get(api('/workflow-step-infos/categories'), () => HttpResponse.json({ items: [] })),
    http.get(api('/workflows/w-1/variables'), () => HttpResponse.json({ items: [] })),
    http.post(api('/workflow-history/commits'), () => HttpResponse.json({ items: commits, total: commits.length, page: 1, page_size: 50 })),
    http.get(api('/conversations'), () => HttpResponse.json({ items: [detail], total: 1, page: 1, page_size: 1 })),
    http.get(api('/conversations/c-1'), () => HttpResponse.json(detail)),
  );
}

async function openAssistant() {
  const view = renderApp({ route: '/workflows/w-1' });
  await view.user.click(await screen.findByRole('tab', { name: 'Assistant' }));
  return { ...view, log: await screen.findByRole('log', { name: 'Messages' }), input: await screen.findByRole('textbox', { name: 'Message' }) };
}

describe('the editor’s assistant', () => {
  // Over Jest’s 5 s at worst: a streamed answer rendered chunk by chunk, then the canvas refreshed (2 s alone, 3.6 s beside the other projects).
  it('streams the answer as it arrives, with tool cards and the turn’s commit, and refreshes the canvas', async () => {
    serveEditor();
    const stream = openStream();
    const sent: { body: unknown; auth: string | null; requestId: string | null }[] = [];
    server.use(
      http.post(api('/conversations/c-1/messages/stream'), async ({ request }) => {
        sent.push({ body: await request.json(), auth: request.headers.get('authorization'), requestId: request.headers.get('x-request-id') });
        return stream.response();
      }),
    );
    const { user, log, input } = await openAssistant();
    expect(log).toHaveAttribute('aria-live', 'polite');
    await user.type(input, 'Keep big deals{Shift>}{Enter}{/Shift}please');
    expect(input).toHaveValue('Keep big deals\nplease');
    await user.keyboard('{Enter}');

    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ body: { content: 'Keep big deals\nplease' }, auth: 'Bearer good' });
    expect(sent[0].requestId).toBeTruthy();
    expect(input).toHaveValue('');
    expect(within(log).getByText(/Keep big deals/)).toBeInTheDocument();

    stream.send('message_start', { conversation_id: 'c-1', user_message_id: 'm-10', message_id: 'm-11' });
    stream.send('text_delta', { delta: 'I will add a **filter**' });
    expect(await within(log).findByText('filter', { selector: 'strong' })).toBeInTheDocument();
    // While it streams, Stop replaces Send.
    expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();

    stream.send('tool_call', { id: 't-1', name: 'add_step', args: { step_type: 'filter', name: 'Filter rows' } });
    const card = await within(log).findByTestId('tool-call');
    expect(card).toHaveTextContent('Using Add step: Filter rows…');
    expect(card).toHaveAttribute('data-state', 'running');
    stream.send('tool_result', {
      id: 't-1',
      name: 'add_step',
      ok: true,
      result: { summary: 'Added step Filter rows', step: { id: 's-2', name: 'Filter rows', step_type: 'filter', param_inputs: {}, inputs: ['s-1'] } },
    });
    await waitFor(() => expect(card).toHaveTextContent('Added step Filter rows'));
    expect(card).toHaveAttribute('data-state', 'done');

    const readsBefore = workflowReads;
    stream.send('commit', commitCard);
    const commit = await within(log).findByTestId('commit-card');
    expect(commit).toHaveTextContent('Added 1 step(s)');
    expect(commit).toHaveTextContent('Added step Filter rows');
    // The change's label is the server's whole sentence: said once, not after a kind badge again.
    expect(commit).not.toHaveTextContent('Added step Added step');
    // The commit made the workflow stale: the editor reads it again, as after its own edits.
    await waitFor(() => expect(workflowReads).toBeGreaterThan(readsBefore));

    stream.send('text_delta', { delta: ' and it is done.' });
    stream.send('done', { message_id: 'm-11', status: 'complete', usage: { input_tokens: 10, output_tokens: 5 } });
    stream.close();
    expect(await screen.findByRole('button', { name: 'Send' })).toBeInTheDocument();
    const answer = within(log)
      .getAllByTestId('chat-message')
      .find((m) => m.dataset.role === 'assistant')!;
    expect(answer).toHaveAttribute('data-status', 'complete');
    expect(answer).toHaveTextContent('I will add a filter');
    expect(answer).toHaveTextContent('and it is done.');
    expect(within(answer).getAllByTestId('tool-call')).toHaveLength(1);
  }, 15_000);

  it.each(['the Stop button', 'Escape in the message box'])('stops a turn with %s: the request is aborted and the partial answer stays', async (how) => {
    serveEditor();
    const stream = openStream();
    let aborted = false;
    server.use(
      http.post(api('/conversations/c-1/messages/stream'), ({ request }) => {
        request.signal.addEventListener('abort', () => (aborted = true));
        return stream.response();
      }),
    );
    const { user, log, input } = await openAssistant();
    await user.type(input, 'Explain this workflow{Enter}');
    stream.send('message_start', { conversation_id: 'c-1', user_message_id: 'm-10', message_id: 'm-11' });
    stream.send('text_delta', { delta: 'It loads leads and' });
    expect(await within(log).findByText('It loads leads and')).toBeInTheDocument();

    if (how === 'the Stop button') await user.click(screen.getByRole('button', { name: 'Stop' }));
    else await user.type(input, '{Escape}');
    expect(await within(log).findByText('Stopped: the answer is incomplete.')).toBeInTheDocument();
    expect(within(log).getByText('It loads leads and')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
    await waitFor(() => expect(aborted).toBe(true));
  });

  it('joins each tool result to its own call when the model server numbers its calls afresh each step, and says why a call was refused', async () => {
    const step = (id: string, name: string) => ({ id, workflow_id: 'w-1', step_type: 'filter', name, param_inputs: {}, inputs: [], position: { x: 0, y: 0 } });
    // As the server stores a turn whose two model steps both called their first tool `call_1`.
    const parts: ConversationMessageOut['parts'] = [
      { type: 'tool_call', id: 'call_1', name: 'add_step', args: { step_type: 'filter', name: 'Big deals' } },
      { type: 'tool_call', id: 'call_2', name: 'add_step', args: { step_type: 'teleport' } },
      { type: 'tool_result', id: 'call_1', name: 'add_step', ok: true, result: { summary: 'Added step Big deals', step: step('s-2', 'Big deals') } },
      {
        type: 'tool_result',
        id: 'call_2',
        name: 'add_step',
        ok: false,
        result: {
          error: 'The tool call does not fit the rules; see problems.',
          problems: [{ msg: 'There is no step type "teleport".', loc: ['body', 'step_type'] }],
        },
      },
      { type: 'tool_call', id: 'call_1', name: 'connect_steps', args: { from_step_id: 's-1', to_step_id: 's-2' } },
      {
        type: 'tool_result',
        id: 'call_1',
        name: 'connect_steps',
        ok: true,
        result: { summary: 'Connected Load leads → Big deals', step: step('s-2', 'Big deals') },
      },
      { type: 'text', text: 'Done.' },
    ];
    serveEditor([message({ id: 'm-1', content: 'Build it' }), message({ id: 'm-2', role: 'assistant', content: 'Done.', parts })]);
    const { log } = await openAssistant();
    await within(log).findByText('Done.');
    expect(
      within(log)
        .getAllByTestId('tool-call')
        .map((card) => card.textContent),
    ).toEqual(['Added step Big deals', 'Add step failed: There is no step type "teleport".', 'Connected Load leads → Big deals']);
  });

  it('undoes the turn’s commit with the workflow’s undo when it is the latest change', async () => {
    serveEditor([
      message({ id: 'm-1', content: 'Add a filter' }),
      message({ id: 'm-2', role: 'assistant', content: 'Done.', parts: [{ type: 'text', text: 'Done.' }], commit: commitCard }),
    ]);
    const undone: unknown[] = [];
    server.use(
      http.post(api('/workflow-history/undo'), async ({ request }) => {
        undone.push(await request.json());
        return HttpResponse.json(workflowWith([load], 3));
      }),
    );
    const { user } = await openAssistant();
    await user.click(await screen.findByRole('button', { name: 'Undo: Added 1 step(s)' }));
    await waitFor(() => expect(undone).toEqual([{ workflow_id: 'w-1', version: 1 }]));
    expect(await within(screen.getByTestId('commit-card')).findByText('Undone')).toBeInTheDocument();
  });

  it('undoes an older commit by restoring the state before it', async () => {
    serveEditor(
      [message({ id: 'm-2', role: 'assistant', content: 'Done.', commit: commitCard })],
      [commitOf('k-3', 3), commitOf('k-2', 2), commitOf('k-1', 1)],
    );
    const restored: string[] = [];
    server.use(
      http.post(api('/workflow-history/restore/:commitId'), ({ params }) => {
        restored.push(params.commitId as string);
        return HttpResponse.json(workflowWith([load], 4));
      }),
    );
    const { user } = await openAssistant();
    await user.click(await screen.findByRole('button', { name: 'Undo: Added 1 step(s)' }));
    await waitFor(() => expect(restored).toEqual(['k-1']));
  });

  it('applies a dry run’s proposal as shown, through the server, without asking again', async () => {
    const proposal = { ...commitCard, commit_id: null, applied: false };
    serveEditor([
      message({ id: 'm-1', content: 'Add a filter' }),
      message({ id: 'm-2', role: 'assistant', content: 'I would add a filter.', commit: proposal }),
    ]);
    const bodies: unknown[] = [];
    const applied: string[] = [];
    server.use(
      http.post(api('/conversations/c-1/messages/:messageId/apply'), ({ params }) => {
        applied.push(params.messageId as string);
        return HttpResponse.json(
          message({ id: 'm-2', role: 'assistant', content: 'I would add a filter.', commit: { ...proposal, applied: true, commit_id: 'k-9' } }),
        );
      }),
      http.post(api('/conversations/c-1/messages/stream'), async ({ request }) => {
        bodies.push(await request.json());
        const stream = openStream();
        stream.send('message_start', { conversation_id: 'c-1', user_message_id: 'm-3', message_id: 'm-4' });
        stream.send('done', { message_id: 'm-4', status: 'complete', usage: null });
        stream.close();
        return stream.response();
      }),
    );
    const { user } = await openAssistant();
    expect(within(screen.getByTestId('commit-card')).getByText('Proposal, not applied')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Apply: Added 1 step(s)' }));
    await waitFor(() => expect(applied).toEqual(['m-2']));
    expect(bodies).toEqual([]);

    // The switch makes the next turn a proposal.
    await user.click(screen.getByRole('checkbox', { name: 'Propose only' }));
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'And sort it{Enter}');
    await waitFor(() => expect(bodies).toEqual([{ content: 'And sort it', dry_run: true }]));
  });

  it('shows the warning modal when no model is configured, and keeps the message', async () => {
    serveEditor();
    server.use(
      http.post(api('/conversations/c-1/messages/stream'), () =>
        HttpResponse.json(
          {
            detail: 'No language model is configured.',
            modal: { modal_id: 'ai-no-model', level: 'warning', content: 'Connect a model: set LLM_BASE_URL and LLM_MODEL.', buttons: ['OK'] },
          },
          { status: 409 },
        ),
      ),
    );
    const { user, input } = await openAssistant();
    await user.type(input, 'Hello{Enter}');
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Connect a model: set LLM_BASE_URL and LLM_MODEL.');
    expect(within(dialog).getByRole('heading', { name: 'Warning' })).toBeInTheDocument();
    expect(input).toHaveValue('Hello');
  });

  it('shows an error event’s detail, keeping what streamed', async () => {
    serveEditor();
    server.use(
      http.post(api('/conversations/c-1/messages/stream'), () => {
        const stream = openStream();
        stream.send('message_start', { conversation_id: 'c-1', user_message_id: 'm-3', message_id: 'm-4' });
        stream.send('text_delta', { delta: 'Half an answer' });
        stream.send('error', { detail: 'The model provider answered 429: rate limited.', status: 'partial' });
        stream.close();
        return stream.response();
      }),
    );
    const { user, input, log } = await openAssistant();
    await user.type(input, 'Hello{Enter}');
    expect(await screen.findByText('The model provider answered 429: rate limited.')).toBeInTheDocument();
    expect(within(log).getByText('Half an answer')).toBeInTheDocument();
    expect(within(log).getByText('Stopped: the answer is incomplete.')).toBeInTheDocument();
  });

  it('ends the session on a 401, like every other call', async () => {
    serveEditor();
    server.use(http.post(api('/conversations/c-1/messages/stream'), () => HttpResponse.json({ detail: 'Not authenticated' }, { status: 401 })));
    const { user, input } = await openAssistant();
    await user.type(input, 'Hello{Enter}');
    await waitFor(() => expect(currentLocation()).toBe('/login'));
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  it('creates the workflow’s coordinator conversation with the first message', async () => {
    serveEditor();
    const created: unknown[] = [];
    server.use(
      http.get(api('/conversations'), ({ request }) => {
        const query = new URL(request.url).searchParams;
        expect([query.get('workflow_id'), query.get('agent')]).toEqual(['w-1', 'coordinator']);
        return HttpResponse.json({ items: [], total: 0, page: 1, page_size: 1 });
      }),
      http.post(api('/conversations'), async ({ request }) => {
        created.push(await request.json());
        return HttpResponse.json(conversation({ id: 'c-9' }), { status: 201 });
      }),
      http.get(api('/conversations/c-9'), () => HttpResponse.json({ ...conversation({ id: 'c-9' }), messages: [] })),
      http.post(api('/conversations/c-9/messages/stream'), () => {
        const stream = openStream();
        stream.send('message_start', { conversation_id: 'c-9', user_message_id: 'm-1', message_id: 'm-2' });
        stream.send('text_delta', { delta: 'Hi there.' });
        stream.send('done', { message_id: 'm-2', status: 'complete', usage: null });
        stream.close();
        return stream.response();
      }),
    );
    const { user, input, log } = await openAssistant();
    await user.type(input, 'Hello{Enter}');
    expect(await within(log).findByText('Hi there.')).toBeInTheDocument();
    expect(created).toEqual([{ agent: 'coordinator', workflow_id: 'w-1' }]);
  });
});

describe('the conversations page', () => {
  it('lists the conversations and opens one', async () => {
    localStorage.setItem('accessToken', 'good');
    const general = conversation({ id: 'c-2', title: 'What is a step?', agent: 'general', workflow_id: null, message_count: 2 });
    server.use(
      http.get(api('/conversations'), ({ request }) => {
        const query = new URL(request.url).searchParams;
        expect(query.get('page')).toBe('1');
        return HttpResponse.json({ items: [general, conversation({ message_count: 4 })], total: 2, page: 1, page_size: 20 });
      }),
      http.get(api('/conversations/c-2'), () =>
        HttpResponse.json({
          ...general,
          messages: [
            message({ id: 'm-1', content: 'What is a step?' }),
            message({
              id: 'm-2',
              role: 'assistant',
              content: 'A step is *one* thing.',
              parts: [{ type: 'text', text: 'A step is *one* thing. <img src=x onerror="alert(1)">' }],
            }),
          ],
        }),
      ),
    );
    const { user } = renderApp({ route: '/conversations' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Conversations' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Your conversations' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => within(i).getByTestId('agent-badge').textContent)).toEqual(['General', 'Workflow assistant']);
    expect(items[1]).toHaveTextContent('4 messages');
    expect(within(items[1]).getByRole('link', { name: 'Open the workflow of Build me a report' })).toHaveAttribute('href', '/workflows/w-1');
    expect(within(items[0]).queryByRole('link', { name: /Open the workflow/ })).toBeNull();

    await user.click(within(items[0]).getByRole('link', { name: 'What is a step?' }));
    await waitFor(() => expect(currentLocation()).toBe('/conversations/c-2'));
    const log = await screen.findByRole('log', { name: 'Messages' });
    expect(within(log).getByText('one', { selector: 'em' })).toBeInTheDocument();
    // Raw HTML in an answer is text, never an element.
    expect(log.querySelector('img')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeInTheDocument();
    // No dry-run switch: a general conversation edits nothing.
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('starts a new conversation', async () => {
    localStorage.setItem('accessToken', 'good');
    const created: unknown[] = [];
    server.use(
      // A Chinese account: with an English one, its language wins over the /cn address (UserLocaleSync).
      http.get(api('/users/me'), () => HttpResponse.json({ ...testUser, locale: 'cn' })),
      http.get(api('/conversations'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 20 })),
      http.post(api('/conversations'), async ({ request }) => {
        created.push(await request.json());
        return HttpResponse.json(conversation({ id: 'c-5', title: '', agent: 'general', workflow_id: null }), { status: 201 });
      }),
      http.get(api('/conversations/c-5'), () =>
        HttpResponse.json({ ...conversation({ id: 'c-5', title: '', agent: 'general', workflow_id: null }), messages: [] }),
      ),
    );
    const { user } = renderApp({ route: '/cn/conversations' });
    expect(await screen.findByText('还没有对话')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '新建对话' }));
    await waitFor(() => expect(currentLocation()).toBe('/cn/conversations/c-5'));
    expect(await screen.findByRole('textbox', { name: '消息' })).toBeInTheDocument();
    expect(created).toEqual([{ agent: 'general' }]);
  });
});
