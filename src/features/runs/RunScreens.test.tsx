import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { accountIn, api } from '../../test/handlers';
import { renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { serveEditor, workflowWith } from '../workflows/editor/editorFixtures';
import { computeJobOf, keep, load, runOf, serveRuns, stepRunOf, summaryOf } from './runFixtures';
import type { WorkflowRun } from './runsApi';
import '../../test/opensEditor';

// Issue 9, the run screens in the editor: starting runs, each node's state in the run shown, the
// run panel (progress, controls, logs, compute details, history), in English and Chinese.

const encoder = new TextEncoder();
/** An event stream answering these events; open ones stay open (as while a run goes on). */
function eventStream(events: { id: number; type: string; data: object }[], { close = true } = {}) {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('retry: 20\n\n'));
      for (const e of events) controller.enqueue(encoder.encode(`id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify({ type: e.type, ...e.data })}\n\n`));
      if (close) controller.close();
    },
  });
  return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } });
}

/** The editor's world: workflow w-1 with two steps, these runs in its history (newest first). */
function serve(history: WorkflowRun[]) {
  serveEditor({ workflow: workflowWith([load, keep]) });
  serveRuns(history);
  server.use(
    http.get(api('/workflow-runs/:id/events'), () => eventStream([])),
    http.get(api('/step-runs/:id/progress'), ({ params }) => {
      const s = history.flatMap((r) => r.step_runs).find((x) => x.id === params.id)!;
      return HttpResponse.json({
        step_run_id: s.id,
        state: s.state,
        records_done: s.records_done,
        records_total: s.records_total,
        records_failed: s.records_failed,
        percent: s.percent,
        rate_per_second: null,
        eta_seconds: null,
        started_at: null,
        updated_at: s.created_at,
        ended_at: null,
      });
    }),
  );
}

const node = (name: string) => screen.getAllByTestId('step-node').find((n) => n.getAttribute('aria-label') === name)!;
const nodeState = (name: string) => within(node(name)).getByTestId('step-run-state');
const selectStep = async (name: string) => {
  await screen.findAllByTestId('step-node');
  fireEvent.click(within(node(name)).getByText(name));
};

describe('starting a run', () => {
  // Over Jest’s 5 s at worst: the editor’s first render and five runs started from it (2 s alone, 4 s beside the other projects).
  it('runs the whole workflow from the toolbar, and up to / only / from a step or a preview of 100 records from the inspector', async () => {
    serve([]);
    const sent: string[] = [];
    server.use(
      http.post(api('/workflow-execution/w-1/steps/:stepId/execute'), ({ params, request }) => {
        const query = new URL(request.url).searchParams;
        sent.push(`${params.stepId as string} ${query.get('mode')} ${query.get('sample_size') ?? '-'}`);
        const run = runOf([stepRunOf('s-1', 'Load leads', { state: 'succeeded', records_done: 3, records_total: 3, percent: 100 })], {
          id: `r-${sent.length}`,
          state: 'succeeded',
        });
        return HttpResponse.json({ ...run, message: 'Run started.' }, { status: 202 });
      }),
    );
    const { user } = renderApp({ route: '/workflows/w-1' });
    await user.click(await screen.findByRole('button', { name: 'Run workflow' }));
    // The last step (nothing reads from it) is the target; the server's message is shown.
    await waitFor(() => expect(sent).toEqual(['s-2 all -']));
    expect(await screen.findByText('Run started.')).toBeInTheDocument();
    // Once: the run put into the cache does not bring the start's notice with it.
    expect(screen.getAllByText('Run started.')).toHaveLength(1);
    expect(within(node('Load leads')).getByTestId('step-run-state')).toHaveTextContent('Succeeded · 3 of 3 records');

    await selectStep('Keep big ones');
    const inspector = await screen.findByRole('complementary', { name: 'Step settings' });
    for (const name of ['Run up to here', 'Run this step', 'Run from here', 'Preview on 100 records']) {
      await user.click(within(inspector).getByRole('button', { name }));
    }
    await waitFor(() => expect(sent).toEqual(['s-2 all -', 's-2 up_to -', 's-2 only -', 's-2 from -', 's-2 up_to 100']));
  }, 15_000);

  it('is not possible while a run of the workflow is open, and says why', async () => {
    serve([runOf([stepRunOf('s-1', 'Load leads', { state: 'running' })])]);
    renderApp({ route: '/workflows/w-1' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Run workflow' })).toBeDisabled());
    expect(screen.getByRole('button', { name: 'Run workflow' })).toHaveAttribute(
      'title',
      'A run of this workflow is in progress: wait for it to finish, or cancel it.',
    );
    await selectStep('Load leads');
    const inspector = await screen.findByRole('complementary', { name: 'Step settings' });
    expect(within(inspector).getByRole('button', { name: 'Run this step' })).toBeDisabled();
    expect(within(inspector).getByTestId('run-busy')).toHaveTextContent('A run of this workflow is in progress');
  });
});

describe('the canvas during a run', () => {
  it('shows each step’s state and records, and follows the run’s events', async () => {
    const running = runOf([
      stepRunOf('s-1', 'Load leads', { state: 'running', records_done: 10, records_total: 100, percent: 10 }),
      stepRunOf('s-2', 'Keep big ones'),
    ]);
    serve([running]);
    server.use(
      http.get(api('/workflow-runs/r-1/events'), () =>
        eventStream([{ id: 1, type: 'step_progress', data: { step_run_id: 'sr-s-1', done: 80, total: 100 } }], { close: false }),
      ),
    );
    renderApp({ route: '/workflows/w-1' });
    await waitFor(() => expect(nodeState('Keep big ones')).toHaveTextContent('Queued'));
    // The progress event moves the ring and the count without reading the run again.
    await waitFor(() => expect(nodeState('Load leads')).toHaveTextContent('Running 80% · 80 of 100 records'));
    expect(nodeState('Load leads')).toHaveAttribute('data-state', 'running');
  });

  it('marks a failed step with its error, once the run’s events say it ended', async () => {
    let ended = false;
    const running = runOf([stepRunOf('s-1', 'Load leads', { state: 'running' }), stepRunOf('s-2', 'Keep big ones')]);
    const failed = runOf(
      [
        stepRunOf('s-1', 'Load leads', { state: 'succeeded', records_done: 5, records_total: 5, percent: 100 }),
        stepRunOf('s-2', 'Keep big ones', { state: 'failed', error: { message: 'Column “amount” does not exist.', key: 'x' } }),
      ],
      { state: 'failed' },
    );
    serve([running]);
    server.use(
      http.get(api('/workflow-runs/r-1'), () => HttpResponse.json(ended ? failed : running)),
      http.get(api('/workflow-runs/r-1/events'), () => {
        ended = true;
        return eventStream([
          { id: 1, type: 'step_succeeded', data: { step_run_id: 'sr-s-1' } },
          { id: 2, type: 'step_failed', data: { step_run_id: 'sr-s-2' } },
          { id: 3, type: 'run_failed', data: {} },
        ]);
      }),
    );
    renderApp({ route: '/workflows/w-1' });
    await waitFor(() => expect(nodeState('Keep big ones')).toHaveAttribute('data-state', 'failed'));
    expect(nodeState('Keep big ones')).toHaveAttribute('title', expect.stringContaining('Column “amount” does not exist.'));
    expect(nodeState('Load leads')).toHaveTextContent('Succeeded · 5 of 5 records');
    await selectStep('Keep big ones');
    const inspector = await screen.findByRole('complementary', { name: 'Step settings' });
    expect(within(inspector).getByText('Column “amount” does not exist.')).toBeInTheDocument();
  });

  // Over Jest’s 5 s: the run is read once a second, three times, on real timers.
  it('reads the run every second when its event stream cannot be read', async () => {
    let reads = 0;
    const running = runOf([stepRunOf('s-1', 'Load leads', { state: 'running', records_total: 10, percent: 0 })]);
    const done = runOf([stepRunOf('s-1', 'Load leads', { state: 'succeeded', records_done: 10, records_total: 10, percent: 100 })], { state: 'succeeded' });
    serve([running]);
    server.use(
      http.get(api('/workflow-runs/r-1/events'), () => HttpResponse.json({ detail: 'Not here.' }, { status: 502 })),
      http.get(api('/workflow-runs/r-1'), () => HttpResponse.json(++reads >= 3 ? done : running)),
    );
    renderApp({ route: '/workflows/w-1' });
    await waitFor(() => expect(nodeState('Load leads')).toHaveAttribute('data-state', 'succeeded'), { timeout: 15000 });
    expect(reads).toBeGreaterThanOrEqual(3);
  }, 20_000);
});

describe('the run panel', () => {
  it('says a finished step whose output is deferred has its records computed when read, not "0 records"', async () => {
    const run = runOf(
      [
        stepRunOf('s-1', 'Load leads', { state: 'succeeded', records_done: 0, records_total: null, percent: 100, output_dataset_id: 'ds-9' }),
        stepRunOf('s-2', 'Keep big ones', { state: 'succeeded', records_done: 3, records_total: 3, percent: 100 }),
      ],
      { state: 'succeeded' },
    );
    serve([run]);
    server.use(
      http.get(api('/workflow-runs/r-1'), () => HttpResponse.json(run)),
      http.get(api('/workflow-runs/r-1/events'), () => eventStream([], { close: false })),
    );
    renderApp({ route: '/workflows/w-1' });
    const panel = await screen.findByRole('region', { name: 'Run' });
    const first = await within(panel).findByRole('group', { name: 'Load leads' });
    expect(within(first).getByTestId('step-run-records')).toHaveTextContent('records computed when read');
    expect(within(panel).getByRole('group', { name: 'Keep big ones' })).toHaveTextContent('3 of 3 records');
    expect(panel.textContent).not.toMatch(/NaN/);
  });

  it('shows the run’s and each step’s progress with rate and ETA, and pauses the run', async () => {
    const run = runOf([
      stepRunOf('s-1', 'Load leads', { state: 'succeeded', records_done: 200, records_total: 200, percent: 100, output_dataset_id: 'ds-9' }),
      stepRunOf('s-2', 'Keep big ones', { state: 'running', records_done: 50, records_total: 200, percent: 25 }),
    ]);
    serve([run]);
    const actions: string[] = [];
    let current = run;
    server.use(
      http.get(api('/workflow-runs/r-1'), () => HttpResponse.json(current)),
      http.get(api('/workflow-runs/r-1/events'), () => eventStream([], { close: false })),
      http.get(api('/step-runs/sr-s-2/progress'), () =>
        HttpResponse.json({
          step_run_id: 'sr-s-2',
          state: 'running',
          records_done: 50,
          records_total: 200,
          records_failed: 0,
          percent: 25,
          rate_per_second: 12.5,
          eta_seconds: 150,
          started_at: null,
          updated_at: '2026-11-20T10:00:00.000Z',
          ended_at: null,
        }),
      ),
      http.post(api('/workflow-runs/r-1/control'), async ({ request }) => {
        const { action } = (await request.json()) as { action: string };
        actions.push(action);
        current = { ...run, state: 'paused' };
        return HttpResponse.json({ ...current, message: 'Paused.' });
      }),
    );
    const { user } = renderApp({ route: '/workflows/w-1' });
    const panel = await screen.findByRole('region', { name: 'Run' });
    await waitFor(() => expect(within(panel).getByTestId('run-state')).toHaveTextContent('Running'));
    expect(within(panel).getByTestId('run-steps-done')).toHaveTextContent('1 of 2 steps finished');
    const second = within(panel).getByRole('group', { name: 'Keep big ones' });
    expect(within(second).getByRole('progressbar', { name: 'Progress of “Keep big ones”' })).toHaveAttribute('aria-valuenow', '25');
    expect(within(second).getByTestId('step-run-records')).toHaveTextContent('50 of 200 records');
    expect(await within(second).findByTestId('step-run-speed')).toHaveTextContent('12.5 records/s · about 3 min left');
    const first = within(panel).getByRole('group', { name: 'Load leads' });
    expect(within(first).getByRole('link', { name: 'Output dataset' })).toHaveAttribute('href', '/datasets/ds-9');

    const controls = within(panel).getByRole('group', { name: 'Run controls' });
    await user.click(within(controls).getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(actions).toEqual(['pause']));
    expect(await screen.findByText('Paused.')).toBeInTheDocument();
    await waitFor(() => expect(within(panel).getByTestId('run-state')).toHaveTextContent('Paused'));
    expect(within(controls).getByRole('button', { name: 'Resume' })).toBeInTheDocument();
  });

  it('retries a step’s failed records, and shows its log and compute details', async () => {
    const run = runOf([stepRunOf('s-1', 'Load leads', { state: 'succeeded', records_done: 98, records_total: 100, records_failed: 2, percent: 100 })], {
      state: 'succeeded',
    });
    serve([run]);
    const sent: { id: string; action: string }[] = [];
    server.use(
      http.post(api('/step-runs/:id/control'), async ({ params, request }) => {
        sent.push({ id: params.id as string, action: ((await request.json()) as { action: string }).action });
        return HttpResponse.json({ ...run.step_runs[0], state: 'queued', message: 'Retrying the failed records.' });
      }),
      http.get(api('/compute-jobs/step-runs/sr-s-1/details'), () =>
        HttpResponse.json({
          step_run: run.step_runs[0],
          items: [
            computeJobOf({
              log: [
                { at: null, text: 'read 100 rows' },
                { at: null, text: 'row 7: timeout' },
              ],
              log_lines: ['read 100 rows', 'row 7: timeout'],
              log_dropped: 3,
            }),
          ],
        }),
      ),
    );
    const { user } = renderApp({ route: '/workflows/w-1' });
    const row = await screen.findByRole('group', { name: 'Load leads' });
    expect(within(row).getByTestId('step-run-records')).toHaveTextContent('98 of 100 records · 2 failed');
    await user.click(within(row).getByRole('button', { name: 'Retry failed records' }));
    await waitFor(() => expect(sent).toEqual([{ id: 'sr-s-1', action: 'retry_failed_records' }]));
    expect(await screen.findByText('Retrying the failed records.')).toBeInTheDocument();

    const toggle = within(row).getByRole('button', { name: /Load leads/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    const details = await within(row).findByTestId('step-run-details');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(await within(details).findByText('Worker: worker-a:4242')).toBeInTheDocument();
    // The worker process's CPU and memory, labelled as the process's: steps share it and DuckDB's threads.
    expect(within(details).getByText('Process CPU time: 1.5 sec')).toBeInTheDocument();
    expect(within(details).getByText('Process peak memory (RSS): 50 MB')).toBeInTheDocument();
    expect(within(details).getByText(/shared with DuckDB and any other steps running at the same time: not this step’s alone/)).toBeInTheDocument();
    expect(within(details).getByText('3 earlier lines left out')).toBeInTheDocument();
    expect(within(details).getByLabelText('Log')).toHaveTextContent('read 100 rows row 7: timeout');
  });

  it('shows a step that ended before counting its records as stopped, not as working on an unknown number', async () => {
    const run = runOf(
      [
        stepRunOf('s-1', 'Load leads', { state: 'failed', percent: null, records_total: null, error: { message: 'File “leads.csv” is gone.', key: 'x' } }),
        stepRunOf('s-2', 'Keep big ones', { state: 'skipped', percent: null, records_total: null }),
      ],
      { state: 'failed' },
    );
    serve([run]);
    renderApp({ route: '/workflows/w-1' });
    const rows = await screen.findAllByTestId('step-run-row');
    for (const [row, name] of [
      [rows[0], 'Load leads'],
      [rows[1], 'Keep big ones'],
    ] as const) {
      // An unknown value makes the bar the moving "busy" kind, which says the step still works.
      expect(within(row).getByRole('progressbar', { name: `Progress of “${name}”` })).toHaveAttribute('aria-valuenow', '0');
    }
  });

  it('lists the workflow’s runs; picking an older one shows it on the canvas', async () => {
    const newer = runOf([stepRunOf('s-1', 'Load leads', { state: 'failed', error: { message: 'File “leads.csv” is gone.', key: 'x' } })], {
      id: 'r-2',
      state: 'failed',
      created_at: '2026-11-20T11:00:00.000Z',
    });
    const older = runOf([stepRunOf('s-1', 'Load leads', { state: 'succeeded', records_done: 4, records_total: 4, percent: 100 })], {
      id: 'r-1',
      state: 'succeeded',
      sample_size: 100,
      mode: 'up_to',
    });
    serve([newer, older]);
    const { user } = renderApp({ route: '/workflows/w-1' });
    await waitFor(() => expect(nodeState('Load leads')).toHaveAttribute('data-state', 'failed'));
    const panel = screen.getByRole('region', { name: 'Run' });
    await user.click(within(panel).getByRole('tab', { name: 'Run history' }));
    const items = await within(panel).findAllByTestId('run-history-item');
    expect(items.map((i) => i.textContent)).toEqual([
      expect.stringContaining('FailedWhole workflow'),
      expect.stringContaining('SucceededUp to a stepPreview of 100 records'),
    ]);
    expect(items[0]).toHaveAttribute('aria-current', 'true');
    await user.click(items[1]);
    await waitFor(() => expect(nodeState('Load leads')).toHaveAttribute('data-state', 'succeeded'));
    expect(within(panel).getAllByTestId('run-history-item')[1]).toHaveAttribute('aria-current', 'true');
  });

  it('says in the history how long each run took, how many records it processed and what it cost', async () => {
    const ended = runOf([stepRunOf('s-1', 'Load leads', { state: 'succeeded', records_done: 1200, records_total: 1200, percent: 100 })], {
      id: 'r-1',
      state: 'succeeded',
      ended_at: '2026-11-20T10:02:05.000Z',
    });
    serve([ended]);
    server.use(
      http.get(api('/workflow-runs/'), () =>
        HttpResponse.json({ items: [summaryOf(ended, { duration_ms: 125_000, records: 1200, cost_credits: 2.5 })], total: 1, page: 1, page_size: 20 }),
      ),
      http.get(api('/balance/'), () => HttpResponse.json({ balance: 10, billing_enabled: true, paused_runs: 0 })),
    );
    const { user } = renderApp({ route: '/workflows/w-1' });
    await waitFor(() => expect(nodeState('Load leads')).toHaveAttribute('data-state', 'succeeded'));
    const panel = screen.getByRole('region', { name: 'Run' });
    await user.click(within(panel).getByRole('tab', { name: 'Run history' }));
    expect(await within(panel).findByTestId('run-history-figures')).toHaveTextContent('2m 5s · 1,200 records · 2.5 credits');
  });

  it('opens the run a link names (?run=, the billing page’s usage rows)', async () => {
    const newer = runOf([stepRunOf('s-1', 'Load leads', { state: 'failed', error: { message: 'File “leads.csv” is gone.', key: 'x' } })], {
      id: 'r-2',
      state: 'failed',
      created_at: '2026-11-20T11:00:00.000Z',
    });
    const older = runOf([stepRunOf('s-1', 'Load leads', { state: 'succeeded', records_done: 4, records_total: 4, percent: 100 })], {
      id: 'r-1',
      state: 'succeeded',
    });
    serve([newer, older]);
    renderApp({ route: '/workflows/w-1?run=r-1' });
    await waitFor(() => expect(nodeState('Load leads')).toHaveAttribute('data-state', 'succeeded'));
  });

  it('pages through a long history', async () => {
    const runs = Array.from({ length: 21 }, (_, i) =>
      runOf([stepRunOf('s-1', 'Load leads', { state: 'succeeded' })], { id: `r-${21 - i}`, state: 'succeeded', mode: i === 20 ? 'only' : 'all' }),
    );
    serve(runs);
    const pages: string[] = [];
    server.use(
      http.get(api('/workflow-runs/'), ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        pages.push(String(page));
        return HttpResponse.json({ items: runs.slice((page - 1) * 20, page * 20).map((run) => summaryOf(run)), total: 21, page, page_size: 20 });
      }),
    );
    const { user } = renderApp({ route: '/workflows/w-1' });
    const panel = await screen.findByRole('region', { name: 'Run' });
    await user.click(within(panel).getByRole('tab', { name: 'Run history' }));
    await waitFor(() => expect(within(panel).getAllByTestId('run-history-item')).toHaveLength(20));
    await user.click(within(panel).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(within(panel).getAllByTestId('run-history-item')).toHaveLength(1));
    expect(within(panel).getByTestId('run-history-item')).toHaveTextContent('One step');
    expect(pages).toContain('2');
  });

  it('collapses and expands from the keyboard', async () => {
    serve([]);
    const { user } = renderApp({ route: '/workflows/w-1' });
    const hide = await screen.findByRole('button', { name: 'Hide the run panel' });
    expect(screen.getByRole('region', { name: 'Run' })).toHaveTextContent('No runs yet.');
    hide.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Show the run panel' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('tab', { name: 'Run history' })).not.toBeInTheDocument();
  });
});

describe('the run screens in Chinese', () => {
  it('say everything in Chinese on the Chinese editor', async () => {
    const run = runOf(
      [
        stepRunOf('s-1', 'Load leads', { state: 'succeeded', records_done: 3, records_total: 3, percent: 100 }),
        stepRunOf('s-2', 'Keep big ones', { state: 'skipped' }),
      ],
      { state: 'failed' },
    );
    serve([run]);
    server.use(accountIn('cn'));
    const { user } = renderApp({ route: '/cn/workflows/w-1' });
    expect(await screen.findByRole('button', { name: '运行工作流' })).toBeEnabled();
    await waitFor(() => expect(nodeState('Load leads')).toHaveTextContent('成功 · 3 / 3 条记录'));
    expect(nodeState('Keep big ones')).toHaveTextContent('已跳过');
    const panel = screen.getByRole('region', { name: '运行' });
    expect(within(panel).getByTestId('run-state')).toHaveTextContent('失败');
    expect(within(within(panel).getByRole('group', { name: '运行控制' })).getByRole('button', { name: '重试' })).toBeInTheDocument();
    expect(within(panel).getByTestId('run-steps-done')).toHaveTextContent('已完成 2 / 2 个步骤');
    await selectStep('Load leads');
    for (const name of ['运行到此步骤', '仅运行此步骤', '从此步骤开始运行', '用 100 条记录预览'])
      expect(await screen.findByRole('button', { name })).toBeEnabled();
    await user.click(within(panel).getByRole('tab', { name: '运行历史' }));
    expect(await within(panel).findByText('整个工作流')).toBeInTheDocument();
  });
});

describe('times in the run screens', () => {
  // The app formats with the browser's time zone (no zone given to Intl): the expected texts come
  // from the same Intl calls in this process's zone, and the raw UTC strings must not show.
  const started = '2026-11-20T10:00:05.000Z';
  const ended = '2026-11-20T10:02:41.000Z';
  const logAt = '2026-11-20T10:01:17.000Z';
  const dateTime = (language: string, iso: string) => new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso));
  const time = (language: string, iso: string) =>
    new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(new Date(iso));

  it.each([
    { route: '/workflows/w-1', language: 'en', name: 'Load leads', started: 'Started', ended: 'Ended', text: 'Done: 3 record(s)' },
    { route: '/cn/workflows/w-1', language: 'zh-CN', name: 'Load leads', started: '开始于', ended: '结束于', text: '完成：3 条记录' },
  ])('shows log line, compute job and step run times in the reader’s zone and language ($language)', async (c) => {
    const run = runOf(
      [stepRunOf('s-1', c.name, { state: 'succeeded', records_done: 3, records_total: 3, percent: 100, started_at: started, ended_at: ended })],
      {
        state: 'succeeded',
      },
    );
    serve([run]);
    if (c.language === 'zh-CN') server.use(accountIn('cn'));
    server.use(
      http.get(api('/compute-jobs/step-runs/sr-s-1/details'), () =>
        HttpResponse.json({
          step_run: run.step_runs[0],
          items: [computeJobOf({ started_at: started, ended_at: ended, log: [{ at: logAt, text: c.text }], log_lines: [`${logAt} ${c.text}`] })],
        }),
      ),
    );
    const { user } = renderApp({ route: c.route });
    const row = await screen.findByRole('group', { name: c.name });
    await user.click(within(row).getByRole('button', { name: new RegExp(c.name) }));
    const details = await within(row).findByTestId('step-run-details');

    const line = await within(details).findByTestId('log-line');
    expect(line).toHaveTextContent(`${time(c.language, logAt)} ${c.text}`);
    expect(within(line).getByText(time(c.language, logAt)).closest('time')).toHaveAttribute('dateTime', logAt);
    for (const testId of ['step-run-times', 'compute-job-times']) {
      const times = within(details).getByTestId(testId);
      expect(times).toHaveTextContent(`${c.started} ${dateTime(c.language, started)}`);
      expect(times).toHaveTextContent(`${c.ended} ${dateTime(c.language, ended)}`);
    }
    expect(details.textContent).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
  });
});
