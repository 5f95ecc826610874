import { screen, waitFor, within } from '@testing-library/react';
import { accountIn } from '../../test/handlers';
import { renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { runOf, serveEditorRun, stepRunOf } from './runFixtures';
import type { WorkflowRun } from './runsApi';
import '../../test/opensEditor';

// Cancelling a run (or one of its steps) is asked first, showing what is done so far: each step's
// state and records done of total, as the run's answer has them. "Keep running" changes nothing.

const running = runOf([
  stepRunOf('s-1', 'Load leads', { state: 'succeeded', records_done: 200, records_total: 200, percent: 100 }),
  stepRunOf('s-2', 'Keep big ones', { state: 'running', records_done: 50, records_total: 200, percent: 25 }),
]);

function serve(run: WorkflowRun) {
  return serveEditorRun(run, (current, target) => {
    if (target === null) {
      return {
        run: { ...current, state: 'cancelled', step_runs: current.step_runs.map((s) => (s.state === 'running' ? { ...s, state: 'cancelled' } : s)) },
        message: 'Run cancelled.',
      };
    }
    return { run: { ...current, step_runs: current.step_runs.map((s) => (s.id === target ? { ...s, state: 'cancelled' } : s)) }, message: 'Step cancelled.' };
  });
}

async function runControls() {
  const panel = await screen.findByRole('region', { name: 'Run' });
  await waitFor(() => expect(within(panel).getByTestId('run-state')).toHaveTextContent('Running'));
  return { panel, controls: within(panel).getByRole('group', { name: 'Run controls' }) };
}

describe('cancelling a run', () => {
  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 4.1 s here beside the other worker (2026-11-28).
  it('asks first, showing each step’s records done of total; "Keep running" sends nothing, "Cancel run" cancels', async () => {
    const sent = serve(running);
    const { user } = renderApp({ route: '/workflows/w-1' });
    const { controls } = await runControls();

    await user.click(within(controls).getByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel this run?' });
    expect(within(dialog).getByText('Steps still queued or running stop now. What is done so far is kept.')).toBeInTheDocument();
    expect(within(dialog).getByText('1 of 2 steps finished')).toBeInTheDocument();
    const steps = within(within(dialog).getByRole('list', { name: 'Done so far' })).getAllByTestId('cancel-run-step');
    expect(steps.map((s) => s.textContent)).toEqual(['Load leadsSucceeded200 of 200 records', 'Keep big onesRunning50 of 200 records']);
    // The run's answer carries no credits: none are made up.
    expect(dialog).not.toHaveTextContent(/credit/i);
    const buttons = within(dialog).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['Keep running', 'Cancel run']);

    await user.click(within(dialog).getByRole('button', { name: 'Keep running' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(sent).toEqual([]);

    await user.click(within(controls).getByRole('button', { name: 'Cancel' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel run' }));
    await waitFor(() => expect(sent).toEqual(['run cancel']));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Run cancelled.')).toBeInTheDocument();
  }, 15_000);

  it('asks before cancelling one step, naming it with its records', async () => {
    const sent = serve(running);
    const { user } = renderApp({ route: '/workflows/w-1' });
    const { panel } = await runControls();
    const row = within(panel).getByRole('group', { name: 'Keep big ones' });

    await user.click(within(row).getByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel the step “Keep big ones”?' });
    const steps = within(dialog).getAllByTestId('cancel-run-step');
    expect(steps.map((s) => s.textContent)).toEqual(['Keep big onesRunning50 of 200 records']);
    expect(sent).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel step' }));
    await waitFor(() => expect(sent).toEqual(['sr-s-2 cancel']));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it('is asked in Chinese on the Chinese editor', async () => {
    serve(running);
    server.use(accountIn('cn'));
    const { user } = renderApp({ route: '/cn/workflows/w-1' });
    const panel = await screen.findByRole('region', { name: '运行' });
    await waitFor(() => expect(within(panel).getByTestId('run-state')).toHaveTextContent('运行中'));
    await user.click(within(within(panel).getByRole('group', { name: '运行控制' })).getByRole('button', { name: '取消' }));
    const dialog = await screen.findByRole('alertdialog', { name: '取消这次运行？' });
    expect(within(dialog).getByText('已完成 1 / 2 个步骤')).toBeInTheDocument();
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['继续运行', '取消运行']);
  });
});
