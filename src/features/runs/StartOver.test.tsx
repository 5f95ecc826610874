import { screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../../test/renderWithProviders';
import { runOf, serveEditorRun, stepRunOf } from './runFixtures';
import type { WorkflowRun } from './runsApi';
import '../../test/opensEditor';

// A stopped run offers two ways on: Retry goes on from what is done (no question), Start over
// processes every record again, calling outside systems and paying again, so it is asked first.

const cancelled = {
  ...runOf([
    stepRunOf('s-1', 'Load leads', { state: 'succeeded', records_done: 200, records_total: 200, percent: 100 }),
    stepRunOf('s-2', 'Keep big ones', { state: 'cancelled', records_done: 50, records_total: 200, percent: 25 }),
  ]),
  state: 'cancelled' as const,
};

function serve(run: WorkflowRun) {
  return serveEditorRun(run, (current, target, action) => ({
    run:
      target === null
        ? { ...current, state: 'running' }
        : { ...current, step_runs: current.step_runs.map((s) => (s.id === target ? { ...s, state: 'queued' } : s)) },
    message: action === 'retry' ? 'Retrying from where it stopped.' : 'Starting over from the first record.',
  }));
}

async function runControls() {
  const panel = await screen.findByRole('region', { name: 'Run' });
  await waitFor(() => expect(within(panel).getByTestId('run-state')).toHaveTextContent('Cancelled'));
  return { panel, controls: within(panel).getByRole('group', { name: 'Run controls' }) };
}

describe('starting a run over', () => {
  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 3.0 s here beside the other worker (2026-11-28).
  it('retries at once, but asks before starting over; "Cancel" sends nothing', async () => {
    const sent = serve(cancelled);
    const { user } = renderApp({ route: '/workflows/w-1' });
    const { controls } = await runControls();
    expect(
      within(controls)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Retry', 'Start over']);

    await user.click(within(controls).getByRole('button', { name: 'Start over' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Start over from the first record?' });
    expect(dialog).toHaveTextContent('call them again for records already done, and that work is charged again');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(sent).toEqual([]);

    await user.click(within(controls).getByRole('button', { name: 'Start over' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Start over' }));
    await waitFor(() => expect(sent).toEqual(['run retry_from_scratch']));
    expect(await screen.findByText('Starting over from the first record.')).toBeInTheDocument();
  }, 15_000);

  it('starts one step over after asking, and retries it without asking', async () => {
    const sent = serve(cancelled);
    const { user } = renderApp({ route: '/workflows/w-1' });
    const { panel } = await runControls();
    const row = within(panel).getByRole('group', { name: 'Keep big ones' });

    await user.click(within(row).getByRole('button', { name: 'Start over' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Start over from the first record?' })).getByRole('button', { name: 'Start over' }));
    await waitFor(() => expect(sent).toEqual(['sr-s-2 retry_from_scratch']));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });
});
