import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { accountIn, api } from '../../test/handlers';
import { currentLocation, renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { balanceOf } from '../usage/billingFixtures';
import { runOf, summaryOf } from './runFixtures';
import type { RunListItem } from './runsApi';
// Loaded with the test file, not inside the first test's 3 s wait: the route renders the page
// through React.lazy, and on a cold Jest cache compiling it and its table shell there took longer
// (this file failed CI so).
import './ExecutionsPage';

// The executions page: every run of the user's across workflows, as the server lists them.

const failed = summaryOf(
  runOf([], {
    id: 'r-failed',
    workflow_id: 'w-1',
    state: 'failed',
    state_reason: { code: 'worker_lost', message: 'The worker running it stopped.' },
    created_at: '2026-11-20T10:00:00.000Z',
    started_at: '2026-11-20T10:00:00.000Z',
    ended_at: '2026-11-20T10:01:30.000Z',
  }),
  { workflow_name: 'Sales report', duration_ms: 90_000, records: 1200, cost_credits: 1.75 },
);
const agentRun = summaryOf(
  runOf([], {
    id: 'r-agent',
    workflow_id: 'w-2',
    state: 'running',
    sample_size: 100,
    mode: 'up_to',
    started_by: 'agent',
    created_at: '2026-11-21T08:30:00.000Z',
    started_at: '2026-11-21T08:30:00.000Z',
  }),
  { workflow_name: 'Lead enrichment', duration_ms: null, records: 40, cost_credits: 0.002 },
);

/** Serves the list (recording each query) and the filter's workflows; billing on. */
function serveList(items: RunListItem[] = [agentRun, failed], total = items.length) {
  const asked: URLSearchParams[] = [];
  server.use(
    http.get(api('/workflow-runs/'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      asked.push(query);
      return HttpResponse.json({ items, total, page: Number(query.get('page')), page_size: Number(query.get('page_size')) });
    }),
    http.get(api('/workflows'), () =>
      HttpResponse.json({
        items: [
          { id: 'w-2', name: 'Lead enrichment' },
          { id: 'w-1', name: 'Sales report' },
        ],
        total: 2,
        page: 1,
        page_size: 200,
      }),
    ),
    http.get(api('/balance/'), () => HttpResponse.json(balanceOf())),
  );
  return asked;
}

describe('executions page', () => {
  beforeEach(() => localStorage.setItem('accessToken', 'good'));

  it("lists every workflow's runs with status and why, workflow, start, duration, records, cost and who started them", async () => {
    const asked = serveList();
    renderApp({ route: '/executions' });
    expect(await screen.findByRole('heading', { name: 'Executions', level: 1 })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Runs' });
    const rows = await within(table).findAllByTestId('execution-row');
    expect(rows).toHaveLength(2);
    // Across workflows: no workflow id asked for.
    expect(asked[0].get('workflow_id')).toBeNull();
    expect(asked[0].getAll('state')).toEqual([]);

    const [agent, fail] = rows;
    expect(within(fail).getByText('Failed: worker lost')).toBeInTheDocument();
    expect(within(fail).getByRole('link', { name: 'Sales report' })).toHaveAttribute('href', '/workflows/w-1?run=r-failed');
    const started = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date('2026-11-20T10:00:00.000Z'));
    expect(within(fail).getByText(started)).toBeInTheDocument();
    expect(within(fail).getByText('1m 30s')).toBeInTheDocument();
    expect(within(fail).getByText('1,200')).toBeInTheDocument();
    expect(within(fail).getByText('1.75')).toBeInTheDocument();
    expect(within(fail).getByText('You')).toBeInTheDocument();

    expect(within(agent).getByText('Running')).toBeInTheDocument();
    expect(within(agent).getByRole('link', { name: 'Lead enrichment' })).toHaveAttribute('href', '/workflows/w-2?run=r-agent');
    expect(within(agent).getByText('—')).toBeInTheDocument();
    expect(within(agent).getByText('0.002')).toBeInTheDocument();
    expect(within(agent).getByText('Agent')).toBeInTheDocument();
    expect(within(agent).getByText(/Preview/)).toBeInTheDocument();
  });

  it('filters by status and by workflow from the first page, and pages through', async () => {
    const asked = serveList([agentRun, failed], 45);
    const { user } = renderApp({ route: '/executions' });
    await screen.findAllByTestId('execution-row');

    await user.click(screen.getByRole('button', { name: /Next/ }));
    await waitFor(() => expect(asked.at(-1)!.get('page')).toBe('2'));
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Status'), 'failed');
    await waitFor(() => expect(asked.at(-1)!.getAll('state')).toEqual(['failed']));
    expect(asked.at(-1)!.get('page')).toBe('1');

    await screen.findByRole('option', { name: 'Sales report' });
    await user.selectOptions(screen.getByLabelText('Workflow'), 'w-1');
    await waitFor(() => expect(asked.at(-1)!.get('workflow_id')).toBe('w-1'));
    expect(asked.at(-1)!.getAll('state')).toEqual(['failed']);
    // The filters are in the address: a link can open them.
    expect(currentLocation()).toContain('state=failed');
    expect(currentLocation()).toContain('workflow=w-1');
  });

  it('opens with the filters of its address, and says when nothing matches', async () => {
    const asked = serveList([]);
    renderApp({ route: '/executions?state=paused' });
    expect(await screen.findByText('No runs match these filters.')).toBeInTheDocument();
    expect(asked[0].getAll('state')).toEqual(['paused']);
    expect(screen.getByLabelText('Status')).toHaveValue('paused');
  });

  it('speaks Chinese', async () => {
    serveList();
    server.use(accountIn('cn'));
    renderApp({ route: '/cn/executions' });
    expect(await screen.findByRole('heading', { name: '执行记录', level: 1 })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: '运行记录' });
    expect(await within(table).findByText('1分钟30秒')).toBeInTheDocument();
    expect(within(table).getByText('智能体')).toBeInTheDocument();
  });
});
