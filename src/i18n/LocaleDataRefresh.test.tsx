import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { LanguageSwitcher } from '../components/LanguageSwitcher';
import { useGetWorkflowInfoQuery } from '../features/workflows/workflowsApi';
import { api } from '../test/handlers';
import { renderWithProviders } from '../test/renderWithProviders';
import { server } from '../test/server';
import { LocaleDataRefresh } from './LocaleDataRefresh';
import '../test/opensEditor';

function CostNotes() {
  const { data } = useGetWorkflowInfoQuery('w-1');
  return <p data-testid="notes">{data?.estimated_cost.notes.join(' ')}</p>;
}

describe('changing language', () => {
  it('refetches texts the server wrote in the previous language', async () => {
    server.use(
      http.get(api('/workflows/w-1/info'), ({ request }) =>
        HttpResponse.json({
          id: 'w-1',
          step_count: 1,
          variable_count: 0,
          steps_by_category: {},
          last_run: null,
          datasets: [],
          estimated_cost: { credits_per_run: 0, credits_per_record: 0, notes: [request.headers.get('accept-language') === 'zh-CN' ? '免费。' : 'Free.'] },
        }),
      ),
    );
    const { user } = renderWithProviders(
      <>
        <LocaleDataRefresh />
        <LanguageSwitcher />
        <CostNotes />
      </>,
      { route: '/workflows/w-1' },
    );
    expect(await screen.findByText('Free.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '中文' }));
    expect(await screen.findByText('免费。')).toBeInTheDocument();
  });
});
