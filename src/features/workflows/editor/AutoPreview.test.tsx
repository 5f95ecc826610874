import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { StepOut } from '../../../../server/src/modules/steps/steps.schemas';
import { api } from '../../../test/handlers';
import { renderApp } from '../../../test/renderWithProviders';
import { server } from '../../../test/server';
import { runOf, serveRuns, stepRunOf } from '../../runs/runFixtures';
import type { WorkflowRun } from '../../runs/runsApi';
import { catalogue, info, serveEditor, workflowWith } from './editorFixtures';
import '../../../test/opensEditor';

// Opening a step whose input never ran previews that input on 100 records, once, when the server
// says it may (free, nothing called outside), so the step's data and column pickers fill.

const load: StepOut = { id: 's-1', workflow_id: 'w-1', step_type: 'import_csv', name: 'Load sales', param_inputs: {}, inputs: [], position: { x: 0, y: 0 } };
const keep: StepOut = { id: 's-2', workflow_id: 'w-1', step_type: 'filter', name: 'Big ones', param_inputs: {}, inputs: ['s-1'], position: { x: 0, y: 140 } };

/** Serves variable-fields with s-1 previewable, and records each run asked for (answered 422). */
function recordRuns(): URLSearchParams[] {
  const asked: URLSearchParams[] = [];
  server.use(
    http.get(api('/workflows/w-1/steps/:stepId/variable-fields'), ({ params }) =>
      HttpResponse.json({ variables: [], fields: [], notes: [], preview_step_ids: params.stepId === 's-2' ? ['s-1'] : [] }),
    ),
    http.post(api('/workflow-execution/w-1/steps/:stepId/execute'), ({ params, request }) => {
      const query = new URL(request.url).searchParams;
      query.set('step', String(params.stepId));
      asked.push(query);
      return HttpResponse.json({ detail: 'Refused.' }, { status: 422 });
    }),
  );
  return asked;
}

const open = async (name: string) => {
  const nodes = await screen.findAllByTestId('step-node');
  fireEvent.click(within(nodes.find((n) => n.getAttribute('aria-label') === name)!).getByText(name));
};

describe('previewing an input when a step is opened', () => {
  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 3.7 s here beside the other worker (2026-11-28).
  it('runs the input up to itself on 100 records, once for this version of the workflow', async () => {
    serveEditor({ workflow: workflowWith([load, keep]) });
    const asked = recordRuns();
    renderApp({ route: '/workflows/w-1' });
    await open('Big ones');
    await waitFor(() => expect(asked).toHaveLength(1));
    expect(Object.fromEntries(asked[0])).toEqual({ step: 's-1', mode: 'up_to', sample_size: '100' });
    // Opened again: not again.
    await open('Load sales');
    await open('Big ones');
    await screen.findByRole('heading', { name: 'Filter rows' });
    expect(asked).toHaveLength(1);
  }, 15_000);

  it('leaves an input alone that needs its settings first', async () => {
    const needsFile = {
      ...info('import_csv', 'Import CSV', 'source', 0, 0),
      params: [{ name: 'file_id', type: 'file' as const, label: 'File', help: '', required: true }],
    };
    serveEditor({ workflow: workflowWith([load, keep]), infos: [needsFile, catalogue[1]] });
    const asked = recordRuns();
    renderApp({ route: '/workflows/w-1' });
    await open('Big ones');
    await screen.findByRole('heading', { name: 'Filter rows' });
    await screen.findByTestId('step-data-none');
    expect(asked).toHaveLength(0);
  });

  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 2.5 s here beside the other worker (2026-11-28).
  it('fills the pickers from a preview that ended before its start was answered (no run is seen ending)', async () => {
    // The filter's condition, checked against the input's columns once they are known.
    const filter = {
      ...catalogue[1],
      params: [{ name: 'condition', type: 'expression' as const, label: 'Condition', help: '', required: true }],
    };
    serveEditor({ workflow: workflowWith([load, keep]), infos: [catalogue[0], filter] });
    const ran = runOf([stepRunOf('s-1', 'Load sales', { state: 'succeeded', records_done: 40, records_total: 40, percent: 100 })], {
      state: 'succeeded',
      mode: 'up_to',
      target_step_id: 's-1',
      sample_size: 100,
    });
    const runs: WorkflowRun[] = [];
    serveRuns(() => runs);
    server.use(
      // Before the preview the input's columns are unknown; after it, they are its output's.
      http.get(api('/workflows/w-1/steps/:stepId/variable-fields'), ({ params }) =>
        HttpResponse.json(
          runs.length
            ? {
                variables: [],
                fields: [{ name: 'status', type: 'VARCHAR', reference: '{{field.status}}', from_step_id: 's-1', input_index: 0 }],
                notes: [],
                preview_step_ids: [],
              }
            : {
                variables: [],
                fields: [],
                notes: ['Run the steps before this one to see their columns.'],
                preview_step_ids: params.stepId === 's-2' ? ['s-1'] : [],
              },
        ),
      ),
      // The run was short: it had ended when its start was answered.
      http.post(api('/workflow-execution/w-1/steps/s-1/execute'), () => {
        runs.push(ran);
        return HttpResponse.json(ran);
      }),
    );
    const { user } = renderApp({ route: '/workflows/w-1' });
    await open('Big ones');
    await screen.findByRole('heading', { name: 'Filter rows' });
    const condition = await screen.findByRole('textbox', { name: /^Condition/ });
    await user.click(condition);
    await user.paste("stauts = 'paid'");
    expect(await screen.findByText('The input has no column “stauts”: did you mean “status”?')).toBeInTheDocument();
  }, 15_000);
});
