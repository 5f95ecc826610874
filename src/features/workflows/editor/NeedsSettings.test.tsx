import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { FolderContentsOut } from '../../../../server/src/modules/files/files.schemas';
import type { StepInfoOut } from '../../../../server/src/modules/step-infos/step-infos.schemas';
import type { StepOut } from '../../../../server/src/modules/steps/steps.schemas';
import type { WorkflowOut } from '../../../../server/src/modules/workflows/workflows.schemas';
import { accountIn, api } from '../../../test/handlers';
import { renderApp } from '../../../test/renderWithProviders';
import { server } from '../../../test/server';
import { info, refuseRuns, serveEditor, workflowWith } from './editorFixtures';
import '../../../test/opensEditor';

// A copy of someone else's workflow: the server dropped its import step's file (it was theirs),
// so the step has no value for a required param. The editor must say so on the canvas and in the form.

const importCsv: StepInfoOut = {
  ...info('import_csv', 'Import CSV', 'source', 0, 0),
  params: [
    { name: 'file', type: 'file', label: 'CSV file', help: 'The CSV file to read.', required: true },
    { name: 'delimiter', type: 'enum', label: 'Delimiter', help: 'Between values.', required: false, default: 'auto', options: ['auto', 'comma', 'semicolon'] },
  ],
};
const filter: StepInfoOut = {
  ...info('filter', 'Filter rows', 'transform', 1, 1),
  params: [{ name: 'condition', type: 'expression', label: 'Condition', help: 'Which rows to keep.', required: true }],
};

const load: StepOut = {
  id: 's-1',
  workflow_id: 'w-1',
  step_type: 'import_csv',
  name: 'Load sales',
  param_inputs: { delimiter: 'semicolon' },
  inputs: [],
  position: { x: 0, y: 0 },
};
const keep: StepOut = {
  id: 's-2',
  workflow_id: 'w-1',
  step_type: 'filter',
  name: 'Big ones',
  param_inputs: { condition: 'amount > 5' },
  inputs: ['s-1'],
  position: { x: 0, y: 140 },
};

const at = '2026-11-20T10:00:00.000Z';
const mine = {
  id: 'f-mine',
  name: 'mine.csv',
  folder_id: null,
  size: 10,
  content_type: 'text/csv',
  checksum_sha256: 'a'.repeat(64),
  created_at: at,
  updated_at: at,
};
const myFiles: FolderContentsOut = {
  folder: null,
  path: [],
  items: [{ type: 'file', ...mine }],
  total: 1,
  page: 1,
  page_size: 100,
  folder_count: 0,
  file_count: 1,
  storage: { used_bytes: 10, quota_bytes: 1024, max_file_bytes: 1024 },
};

/** A clone of someone else's Sales report holding these steps. */
const copyWith = (steps: StepOut[], version = 1): WorkflowOut => ({ ...workflowWith(steps, version), name: 'Copy of Sales report', cloned_from_id: 'w-0' });

describe('a step that needs settings', () => {
  let current: WorkflowOut;
  let saved: unknown = null;

  beforeEach(() => {
    current = copyWith([load, keep]);
    saved = null;
    serveEditor({ workflow: () => current, infos: [importCsv, filter] });
    server.use(
      http.get(api('/files/folders/root'), () => HttpResponse.json(myFiles)),
      http.patch(api('/workflow-steps/s-1/param-inputs/partial'), async ({ request }) => {
        saved = await request.json();
        const step = { ...load, param_inputs: { ...load.param_inputs, ...(saved as { param_inputs: object }).param_inputs } };
        current = copyWith([step, keep], 2);
        return HttpResponse.json({ ...step, workflow_version: 2 });
      }),
    );
  });

  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 3.5 s here beside the other worker (2026-11-28).
  it('is marked on the canvas, naming what is missing, and its form shows the field to fill', async () => {
    const { user } = renderApp({ route: '/workflows/w-1' });
    const nodes = await screen.findAllByTestId('step-node');
    const loadNode = nodes.find((n) => n.getAttribute('aria-label') === 'Load sales')!;
    const keepNode = nodes.find((n) => n.getAttribute('aria-label') === 'Big ones')!;

    const badge = within(loadNode).getByTestId('step-needs-settings');
    expect(badge).toHaveTextContent('Needs settings');
    expect(badge).toHaveAttribute('title', 'Needs a value: CSV file');
    expect(within(keepNode).queryByTestId('step-needs-settings')).not.toBeInTheDocument();

    // Opening the step shows which field needs a value before anything is typed.
    // (A click, not user.click: React Flow's drag handler needs a window on the mouse-down event, which jsdom leaves out.)
    fireEvent.click(within(loadNode).getByText('Load sales'));
    const form = await screen.findByRole('form', { name: 'Step settings' });
    expect(within(form).getByTestId('params-missing')).toHaveTextContent('Before it can run, this step needs a value for CSV file.');
    const fileField = form.querySelector('[data-param="file"]') as HTMLElement;
    expect(within(fileField).getByText('This setting is required.')).toBeInTheDocument();
    expect(within(form.querySelector('[data-param="delimiter"]') as HTMLElement).queryByText('This setting is required.')).not.toBeInTheDocument();

    // Choosing one of my files clears the marks.
    await user.click(within(fileField).getByRole('button', { name: 'Choose CSV file' }));
    const picker = await screen.findByRole('dialog', { name: 'CSV file' });
    await user.click(await within(picker).findByRole('button', { name: 'mine.csv' }));
    await user.click(within(picker).getByRole('button', { name: 'Choose file' }));
    await waitFor(() => expect(within(fileField).getByRole('textbox', { name: /^CSV file/ })).toHaveValue('mine.csv'));
    expect(within(fileField).queryByText('This setting is required.')).not.toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(saved).toEqual({ param_inputs: { file: 'f-mine' } }));
    await waitFor(() => expect(screen.queryByTestId('step-needs-settings')).not.toBeInTheDocument());
    expect(screen.queryByTestId('params-missing')).not.toBeInTheDocument();
  }, 15_000);

  it('keeps Run workflow from asking the server: a click says which step needs what, and opens it', async () => {
    const started = refuseRuns();
    const { user } = renderApp({ route: '/workflows/w-1' });
    await screen.findAllByTestId('step-node');
    const run = screen.getByRole('button', { name: 'Run workflow' });
    await waitFor(() => expect(run).toHaveAttribute('title', 'Some steps need settings or inputs before the workflow can run'));
    expect(run).toBeEnabled();

    await user.click(run);
    const why = await screen.findByTestId('run-needs-settings');
    expect(within(why).getByText('Not ready to run')).toBeVisible();
    const items = within(within(why).getByRole('list', { name: 'Steps that are not ready' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(['Load salesNeeds a value: CSV file']);
    expect(started).toEqual([]);

    await user.click(within(items[0]).getByRole('button', { name: 'Load sales' }));
    const form = await screen.findByRole('form', { name: 'Step settings' });
    expect(within(form).getByTestId('params-missing')).toHaveTextContent('CSV file');
    await waitFor(() => expect(screen.queryByTestId('run-needs-settings')).not.toBeInTheDocument());
    expect(started).toEqual([]);
  });

  it('names the missing settings in Chinese on the Chinese editor', async () => {
    const chinese = { ...importCsv, params: importCsv.params.map((p) => (p.name === 'file' ? { ...p, label: 'CSV 文件' } : p)) };
    server.use(
      http.get(api('/workflow-step-infos'), () => HttpResponse.json({ items: [chinese, filter], total: 2, page: 1, page_size: 200, ranking: 'text' })),
    );
    server.use(accountIn('cn'));
    const { user } = renderApp({ route: '/cn/workflows/w-1' });
    const badge = await screen.findByTestId('step-needs-settings');
    expect(badge).toHaveTextContent('需要设置');
    expect(badge).toHaveAttribute('title', '需要填写：CSV 文件');
    await user.click(screen.getByRole('button', { name: '运行工作流' }));
    const why = await screen.findByTestId('run-needs-settings');
    expect(within(why).getByText('还不能运行')).toBeInTheDocument();
    expect(within(why).getByRole('listitem')).toHaveTextContent('Load sales需要填写：CSV 文件');
  });
});
