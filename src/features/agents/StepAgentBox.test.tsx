import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { api } from '../../test/handlers';
import { renderWithProviders, signedInState } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { StepAgentBox } from './StepAgentBox';

const message = (content: string) => ({
  id: 'm-2',
  role: 'assistant',
  content,
  parts: [{ type: 'text', text: content }],
  status: 'complete',
  commit: null,
  usage: null,
  created_at: '2026-11-24T05:00:00Z',
});

describe('the step inspector asking AI', () => {
  beforeEach(() => localStorage.setItem('accessToken', 'good'));

  it('fills the settings from a sentence and shows them on a few records', async () => {
    let sent: unknown = null;
    server.use(
      http.post(api('/agents/workflow-step-param/w-1/s-1/message'), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({
          conversation_id: 'c-1',
          message: message('I set the condition to **amount > 100**.'),
          params: { condition: 'amount > 100' },
          applied: true,
          preview: {
            run_id: 'r-1',
            state: 'succeeded',
            error: null,
            columns: [
              { name: '_id', type: 'VARCHAR' },
              { name: 'amount', type: 'BIGINT' },
            ],
            records: [
              { _id: 'a', amount: 150 },
              { _id: 'b', amount: 300 },
            ],
          },
        });
      }),
    );
    const { user } = renderWithProviders(<StepAgentBox workflowId="w-1" stepId="s-1" />, { preloadedState: signedInState() });
    expect(screen.getByRole('button', { name: 'Fill settings' })).toBeDisabled();
    await user.type(screen.getByLabelText('What should this step do?'), 'keep orders over 100');
    await user.click(screen.getByRole('button', { name: 'Fill settings' }));
    expect(await screen.findByText(/Settings saved/)).toBeInTheDocument();
    expect(sent).toEqual({ message: 'keep orders over 100', apply: true });
    expect(screen.getByText('amount > 100')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: "Preview of the step's output" });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).queryByText('_id')).not.toBeInTheDocument();
    expect(within(table).getByText('300')).toBeInTheDocument();
  });

  it('checks the step on samples and lists the problems by severity', async () => {
    server.use(
      http.post(api('/agents/workflow-step-param-evaluation/w-1/s-1/message'), () =>
        HttpResponse.json({
          conversation_id: 'c-2',
          message: message('The column `amout` does not exist.'),
          problems: [
            { severity: 'error', msg: 'No column “amout” in the input', record_id: null, param: 'condition' },
            { severity: 'warning', msg: 'Record 3 gave an empty answer', record_id: '3', param: null },
          ],
          preview: null,
        }),
      ),
    );
    const { user } = renderWithProviders(<StepAgentBox workflowId="w-1" stepId="s-1" />, { preloadedState: signedInState() });
    await user.click(screen.getByRole('button', { name: 'Check on samples' }));
    const list = await screen.findByRole('list', { name: '2 problems' });
    expect(within(list).getByText('Error')).toBeInTheDocument();
    expect(within(list).getByText('condition:', { exact: false })).toBeInTheDocument();
    expect(within(list).getByText('Warning')).toBeInTheDocument();
  });

  it('shows the warning modal when no model is connected', async () => {
    server.use(
      http.post(api('/agents/workflow-step-param-evaluation/w-1/s-1/message'), () =>
        HttpResponse.json(
          {
            detail: 'No AI model is connected.',
            modal: { modal_id: 'ai-no-model', level: 'warning', content: 'Agents and AI steps need a chat model.', buttons: ['OK'] },
          },
          { status: 409 },
        ),
      ),
    );
    const { user } = renderWithProviders(<StepAgentBox workflowId="w-1" stepId="s-1" />, { preloadedState: signedInState() });
    await user.click(screen.getByRole('button', { name: 'Check on samples' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Agents and AI steps need a chat model.')).toBeInTheDocument();
    expect(within(dialog).getByText('Warning')).toBeInTheDocument();
  });
});
