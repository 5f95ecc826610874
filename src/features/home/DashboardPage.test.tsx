import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { api } from '../../test/handlers';
import { renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { runOf, summaryOf } from '../runs/runFixtures';
import { balanceOf } from '../usage/billingFixtures';

// The signed-in home: where the user left off (recent workflows and runs) and their credits.

describe('dashboard', () => {
  beforeEach(() => localStorage.setItem('accessToken', 'good'));

  it('shows the recent workflows, the recent runs and the credit balance, each leading to its area', async () => {
    const asked: Record<string, URLSearchParams> = {};
    server.use(
      http.get(api('/workflows'), ({ request }) => {
        asked.workflows = new URL(request.url).searchParams;
        return HttpResponse.json({
          items: [{ id: 'w-1', name: 'Sales report', updated_at: new Date().toISOString() }],
          total: 1,
          page: 1,
          page_size: 5,
        });
      }),
      http.get(api('/workflow-runs/'), ({ request }) => {
        asked.runs = new URL(request.url).searchParams;
        const run = summaryOf(runOf([], { id: 'r-9', state: 'succeeded', ended_at: '2026-11-20T10:00:45.000Z' }), { duration_ms: 45_000 });
        return HttpResponse.json({ items: [run], total: 1, page: 1, page_size: 5 });
      }),
      http.get(api('/balance/'), () => HttpResponse.json(balanceOf({ balance: 42.5 }))),
    );
    renderApp({ route: '/' });

    const workflows = await screen.findByRole('region', { name: 'Recent workflows' });
    expect(await within(workflows).findByRole('link', { name: 'Sales report' })).toHaveAttribute('href', '/workflows/w-1');
    expect(within(workflows).getByRole('link', { name: /All workflows/ })).toHaveAttribute('href', '/workflows');
    expect(asked.workflows.get('sort')).toBe('updated_at');

    const runs = screen.getByRole('region', { name: 'Recent runs' });
    const run = await within(runs).findByTestId('recent-run');
    expect(within(run).getByText('Succeeded')).toBeInTheDocument();
    expect(within(run).getByRole('link', { name: 'Sales report' })).toHaveAttribute('href', '/workflows/w-1?run=r-9');
    expect(within(run).getByText(/45s/)).toBeInTheDocument();
    expect(within(runs).getByRole('link', { name: /All executions/ })).toHaveAttribute('href', '/executions');
    // Across workflows: the latest few of all of them.
    expect(asked.runs.get('workflow_id')).toBeNull();

    const balance = screen.getByRole('region', { name: 'Credit balance' });
    expect(await within(balance).findByTestId('dashboard-balance')).toHaveTextContent('42.5 credits');
    expect(within(balance).getByRole('link', { name: /Top up and usage/ })).toHaveAttribute('href', '/billing');
  });

  it('says when there is nothing yet, and leaves the balance out when billing is off', async () => {
    renderApp({ route: '/' });
    expect(await screen.findByText('No workflows yet.')).toBeInTheDocument();
    expect(await screen.findByText('No runs yet.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Credit balance' })).not.toBeInTheDocument();
    // The way into every area lists the new one.
    expect(screen.getByRole('link', { name: 'Open Executions' })).toHaveAttribute('href', '/executions');
  });
});
