import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { API } from '../../../test/handlers';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { server } from '../../../test/server';
import { WorkflowDetailsDialog } from './WorkflowDetailsDialog';

const workflow = {
  id: 'wf1',
  name: 'Leads',
  description: 'Old words',
  tags: ['sales'],
  visibility: 'private' as const,
  version: 4,
  step_count: 2,
  clone_count: 0,
  cloned_from_id: null,
  published_at: null,
  published_version: null,
  created_at: '2026-11-22T00:00:00.000Z',
  updated_at: '2026-11-22T00:00:00.000Z',
  owner_id: 'u1',
  steps: [],
  variables: [],
  can_undo: true,
  can_redo: false,
};

describe('WorkflowDetailsDialog', () => {
  // Over Jest’s 5 s at worst: types a description and three tags, each keystroke re-rendering the dialog (1 s on a quick idle 2-core machine, 15 s on a slow loaded one).
  it('shows what the workflow holds and its estimated cost, and saves description and tags with If-Match', async () => {
    server.use(
      http.get(`${API}/workflows/wf1/info`, () =>
        HttpResponse.json({
          id: 'wf1',
          step_count: 2,
          variable_count: 1,
          steps_by_category: { source: 1, enrich: 1 },
          last_run: null,
          datasets: [],
          estimated_cost: { credits_per_run: 0, credits_per_record: 1, notes: ['AI calls are priced per record.'] },
        }),
      ),
    );
    let sent: { body: unknown; ifMatch: string | null } | null = null;
    server.use(
      http.put(`${API}/workflows/wf1`, async ({ request }) => {
        sent = { body: await request.json(), ifMatch: request.headers.get('if-match') };
        return HttpResponse.json({ ...workflow, description: 'New words', tags: ['sales', 'weekly'], version: 5 });
      }),
    );
    const onClose = jest.fn();
    const write = <T,>(send: (version: number | undefined) => PromiseLike<T>) => Promise.resolve(send(4));
    renderWithProviders(<WorkflowDetailsDialog workflow={workflow} write={write} open onClose={onClose} />);

    expect(await screen.findByText('0 credits per run + 1 per record')).toBeInTheDocument();
    expect(screen.getByText('AI calls are priced per record.')).toBeInTheDocument();
    expect(screen.getByText('Sources · 1')).toBeInTheDocument();

    const description = screen.getByLabelText('Description');
    await userEvent.clear(description);
    await userEvent.type(description, 'New words');
    const tags = screen.getByLabelText('Tags');
    await userEvent.clear(tags);
    await userEvent.type(tags, 'sales, weekly, sales');
    await userEvent.click(screen.getByRole('button', { name: 'Save details' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual({ body: { description: 'New words', tags: ['sales', 'weekly'] }, ifMatch: '"4"' });
  }, 30_000);
});
