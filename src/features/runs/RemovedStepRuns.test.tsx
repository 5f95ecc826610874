import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { WorkflowOut } from '../../../server/src/modules/workflows/workflows.schemas';
import { accountIn, api } from '../../test/handlers';
import { renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { firstCommit, serveEditor, workflowWith } from '../workflows/editor/editorFixtures';
import { keep, load, runOf, serveRuns, stepRunOf } from './runFixtures';
import '../../test/opensEditor';

// A run holds the steps as they were when it started. After a restore (or an undo, a delete) takes
// a step away, the run panel still lists what that step did in the run, marked as removed from the
// workflow: the run did happen, its records and output are real, and the steps finished still add up.

const finished = runOf(
  [
    stepRunOf('s-1', 'Load leads', { state: 'succeeded', records_done: 200, records_total: 200, percent: 100 }),
    stepRunOf('s-2', 'Keep big ones', { state: 'succeeded', records_done: 120, records_total: 200, percent: 100, output_dataset_id: 'ds-2' }),
  ],
  { state: 'succeeded' },
);

describe('step runs of steps no longer in the workflow', () => {
  let current: WorkflowOut;

  beforeEach(() => {
    current = { ...workflowWith([load, keep], 3), can_undo: true };
    serveEditor({ workflow: () => current, commits: [firstCommit('Added Load leads')] });
    serveRuns([finished]);
    server.use(
      http.post(api('/workflow-history/restore/c-1'), () => {
        current = { ...workflowWith([load], current.version + 1), can_undo: true };
        return HttpResponse.json({ ...current, message: 'Restored version 1.' });
      }),
    );
  });

  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 2.8 s here beside the other worker (2026-11-28).
  it('stay listed after a restore, marked removed, with what they did', async () => {
    const { user } = renderApp({ route: '/workflows/w-1' });
    const panel = await screen.findByRole('region', { name: 'Run' });
    const row = await within(panel).findByRole('group', { name: 'Keep big ones' });
    expect(within(row).queryByTestId('step-run-removed')).not.toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'History' }));
    await user.click(await screen.findByRole('button', { name: 'Restore version 1' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Restore this version?' })).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(screen.getAllByTestId('step-node')).toHaveLength(1));

    const removed = await within(row).findByTestId('step-run-removed');
    expect(removed).toHaveTextContent('Removed');
    expect(removed).toHaveAttribute('title', expect.stringMatching(/^This step is no longer in the workflow/));
    expect(within(row).getByTestId('step-run-records')).toHaveTextContent('120 of 200 records');
    expect(within(row).getByRole('link', { name: 'Output dataset' })).toHaveAttribute('href', '/datasets/ds-2');
    // The step still in the workflow is not marked; the run's count is unchanged.
    expect(within(within(panel).getByRole('group', { name: 'Load leads' })).queryByTestId('step-run-removed')).not.toBeInTheDocument();
    expect(within(panel).getByTestId('run-steps-done')).toHaveTextContent('2 of 2 steps finished');
  }, 15_000);

  it('are marked in Chinese on the Chinese editor', async () => {
    current = { ...workflowWith([load], 4) };
    server.use(accountIn('cn'));
    renderApp({ route: '/cn/workflows/w-1' });
    const panel = await screen.findByRole('region', { name: '运行' });
    const row = await within(panel).findByRole('group', { name: 'Keep big ones' });
    expect(await within(row).findByTestId('step-run-removed')).toHaveTextContent('已移除');
  });
});
