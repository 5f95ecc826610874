import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { accountIn, api } from '../../test/handlers';
import { renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { runOf, serveEditorRun, stepRunOf } from './runFixtures';
import type { StateReason, WorkflowRun } from './runsApi';
import '../../test/opensEditor';

// Issue 11: a paused, failed or cancelled run says why, in the editor's run panel, its step rows,
// the run history and the canvas; out of credits, it offers the top-up and the credit chip stays.

const outOfCredits: StateReason = { code: 'credits', message: 'Paused: out of credits. Top up and the run resumes by itself, keeping the work already done.' };

function pausedForCredits(): WorkflowRun {
  return runOf(
    [
      stepRunOf('s-1', 'Load leads', { state: 'succeeded', records_done: 200, records_total: 200, percent: 100 }),
      stepRunOf('s-2', 'Keep big ones', { state: 'paused', records_done: 100, records_total: 200, percent: 50, state_reason: outOfCredits }),
    ],
    { state: 'paused', pause_reason: 'credits', state_reason: outOfCredits },
  );
}

function serve(run: WorkflowRun) {
  serveEditorRun(run, (current) => ({ run: current, message: 'Done.' }));
}

async function runPanel(state: RegExp | string) {
  const panel = await screen.findByRole('region', { name: 'Run' });
  await waitFor(() => expect(within(panel).getByTestId('run-state')).toHaveTextContent(state));
  return panel;
}

describe("a stopped run's reason", () => {
  it('says a run is paused because the credits ran out, offers "Top up", and keeps the credit chip', async () => {
    serve(pausedForCredits());
    server.use(
      http.get(api('/workflows/w-1/cost-estimate'), () => HttpResponse.json({ credits: 3, balance: -1, enough: false, billing_enabled: true, lines: [] })),
    );
    renderApp({ route: '/workflows/w-1' });
    const panel = await runPanel('Paused: out of credits');
    const reason = within(panel).getByTestId('run-state-reason');
    expect(reason).toHaveTextContent(outOfCredits.message);
    const topUp = within(reason).getByRole('link', { name: 'Top up' });
    expect(topUp).toHaveAttribute('href', '/billing');
    // The step it stopped in says so too.
    const row = within(panel)
      .getAllByTestId('step-run-row')
      .find((r) => r.getAttribute('aria-label') === 'Keep big ones')!;
    expect(row).toHaveTextContent('Paused: out of credits');
    // The toolbar's credit chip stays while the run waits for credits (a paused run is open, and no other run can start).
    const header = screen.getByTestId('editor-header');
    const chip = await within(header).findByTestId('cost-estimate');
    expect(chip).toHaveTextContent('-1 available');
    // (Hidden below the large breakpoint, as jsdom's window is: its link is there all the same.)
    expect(within(chip).getByRole('link', { name: 'Top up', hidden: true })).toHaveAttribute('href', '/billing');
    expect(within(header).getByRole('button', { name: 'Run workflow' })).toBeDisabled();
  });

  it('hides the credit chip while a run goes on, as before: no other run can start', async () => {
    serve(runOf([stepRunOf('s-1', 'Load leads', { state: 'running' }), stepRunOf('s-2', 'Keep big ones')]));
    server.use(
      http.get(api('/workflows/w-1/cost-estimate'), () => HttpResponse.json({ credits: 3, balance: 10, enough: true, billing_enabled: true, lines: [] })),
    );
    renderApp({ route: '/workflows/w-1' });
    await runPanel('Running');
    expect(within(screen.getByTestId('editor-header')).queryByTestId('cost-estimate')).not.toBeInTheDocument();
  });

  it('says in Chinese on the Chinese site', async () => {
    serve(pausedForCredits());
    // A Chinese account: an English one is moved out of /cn once the app knows it (UserLocaleSync).
    server.use(accountIn('cn'));
    renderApp({ route: '/cn/workflows/w-1' });
    const panel = await screen.findByRole('region', { name: '运行' });
    await waitFor(() => expect(within(panel).getByTestId('run-state')).toHaveTextContent('已暂停：点数已用完'));
    expect(within(within(panel).getByTestId('run-state-reason')).getByRole('link', { name: '充值' })).toHaveAttribute('href', '/cn/billing');
  });

  it('says a run was cancelled by its user, in the panel, its steps and the history, with no top-up', async () => {
    const byYou: StateReason = { code: 'by_user', message: 'Cancelled by you.' };
    serve(
      runOf(
        [
          stepRunOf('s-1', 'Load leads', { state: 'succeeded', records_done: 2, records_total: 2, percent: 100 }),
          stepRunOf('s-2', 'Keep big ones', { state: 'cancelled', state_reason: byYou }),
        ],
        { state: 'cancelled', state_reason: byYou },
      ),
    );
    const { user } = renderApp({ route: '/workflows/w-1' });
    const panel = await runPanel('Cancelled by you');
    // The badge says it all: no line repeating it, and no top-up.
    expect(within(panel).queryByTestId('run-state-reason')).not.toBeInTheDocument();
    expect(within(panel).queryByRole('link', { name: 'Top up' })).not.toBeInTheDocument();
    const rows = within(panel).getAllByTestId('step-run-row');
    expect(rows.map((r) => within(r).getAllByText(/Succeeded|Cancelled/)[0].textContent)).toEqual(['Succeeded', 'Cancelled by you']);
    await user.click(within(panel).getByRole('tab', { name: 'Run history' }));
    expect(await within(panel).findByTestId('run-history-item')).toHaveTextContent('Cancelled by you');
  });

  it("says a run failed because its worker was lost, in the server's words, on the canvas too", async () => {
    const lost: StateReason = { code: 'worker_lost', message: 'The worker running this step stopped 3 times (killed or lost, for example out of memory).' };
    serve(
      runOf(
        [
          stepRunOf('s-1', 'Load leads', { state: 'failed', state_reason: lost, error: { key: 'server.runs.workerLostTooOften', message: lost.message } }),
          stepRunOf('s-2', 'Keep big ones', { state: 'skipped' }),
        ],
        { state: 'failed', state_reason: lost, error: { key: 'server.runs.workerLostTooOften', message: lost.message } },
      ),
    );
    renderApp({ route: '/workflows/w-1' });
    const panel = await runPanel('Failed: worker lost');
    expect(within(panel).getByTestId('run-state-reason')).toHaveTextContent(lost.message);
    expect(within(panel).queryByRole('link', { name: 'Top up' })).not.toBeInTheDocument();
    const node = (await screen.findAllByTestId('step-node')).find((n) => n.getAttribute('aria-label') === 'Load leads')!;
    expect(within(node).getByTestId('step-run-state')).toHaveTextContent('Failed: worker lost');
  });

  it('shows the error text of a run that failed on an error', async () => {
    const error = { key: 'server.steps.runFailed', message: 'The step failed while running: no such customer' };
    serve(
      runOf([stepRunOf('s-1', 'Load leads', { state: 'failed', error, state_reason: { code: 'error', message: error.message } })], {
        state: 'failed',
        error,
        state_reason: { code: 'error', message: error.message },
      }),
    );
    renderApp({ route: '/workflows/w-1' });
    const panel = await runPanel('Failed: error');
    expect(within(panel).getByTestId('run-state-reason')).toHaveTextContent('The step failed while running: no such customer');
  });
});
