import { act, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { api } from '../../test/handlers';
import { currentLocation, renderWithProviders, signedInState } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { runsApi } from '../runs/runsApi';
import '../../test/opensEditor';

// A run refused for lack of credits (402 with the 'insufficient-credits' modal): "Top up" goes to
// the billing page in the language being shown, "Cancel" only closes the modal.

const refused = () =>
  server.use(
    http.post(api('/workflow-execution/wf-1/steps/s-1/execute'), () =>
      HttpResponse.json(
        {
          detail: 'Not enough credits.',
          modal: { modal_id: 'insufficient-credits', level: 'warning', content: 'This run needs about 12 credits; you have 3.', buttons: ['Top up', 'Cancel'] },
        },
        { status: 402 },
      ),
    ),
  );

async function startRun(store: ReturnType<typeof renderWithProviders>['store']) {
  await act(async () => {
    await store.dispatch(runsApi.endpoints.executeStep.initiate({ workflowId: 'wf-1', stepId: 's-1', mode: 'all' }));
  });
}

describe('insufficient credits modal', () => {
  it('"Top up" opens the billing page', async () => {
    refused();
    const { store, user } = renderWithProviders(<div />, { route: '/workflows/wf-1', preloadedState: signedInState() });
    await startRun(store);
    expect(await screen.findByText('This run needs about 12 credits; you have 3.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Top up' }));
    expect(currentLocation()).toBe('/billing');
    expect(store.getState().notices.messages).toEqual([]);
  });

  it('keeps the Chinese prefix', async () => {
    refused();
    const { store, user } = renderWithProviders(<div />, { route: '/cn/workflows/wf-1', preloadedState: signedInState() });
    await startRun(store);
    await user.click(await screen.findByRole('button', { name: 'Top up' }));
    expect(currentLocation()).toBe('/cn/billing');
  });

  it('"Cancel" stays on the page', async () => {
    refused();
    const { store, user } = renderWithProviders(<div />, { route: '/workflows/wf-1', preloadedState: signedInState() });
    await startRun(store);
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(currentLocation()).toBe('/workflows/wf-1');
  });
});
