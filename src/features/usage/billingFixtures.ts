import { http, HttpResponse } from 'msw';
import { api } from '../../test/handlers';
import type { CreditPacks, Payment } from '../payments/paymentsApi';
import type { Balance, UsageRecord, UsageSummary } from './usageApi';

// The billing calls as the tests' world answers them (shapes of the issue 11 contract).

export const balanceOf = (balance: Partial<Balance> = {}): Balance => ({ balance: 1234.5, billing_enabled: true, paused_runs: 0, ...balance });

export const usageRecord: UsageRecord = {
  id: 'ur-1',
  created_at: '2026-11-20T09:30:00.000Z',
  quantity: 250,
  unit: 'record',
  unit_price: 0.01,
  credits: 2.5,
  workflow_id: 'wf-1',
  workflow_name: 'Lead enrichment',
  step_id: 's-1',
  step_name: 'Ask AI',
  step_type: 'ai_chat',
  run_id: 'run-1',
  step_run_id: 'sr-1',
  description: null,
};

export const usageSummary: UsageSummary = {
  period: 'day',
  group_by: 'workflow',
  start_date: '2026-10-26',
  end_date: '2026-11-24',
  total_credits: 2.5,
  buckets: [
    { start: '2026-11-19', credits: 0, groups: {} },
    { start: '2026-11-20', credits: 2.5, groups: { 'wf-1': 2.5 } },
  ],
  groups: [{ key: 'wf-1', label: 'Lead enrichment', credits: 2.5 }],
};

export const creditPacks: CreditPacks = {
  mode: 'test',
  items: [
    { id: 'starter', name: 'Starter', credits: 500, amount_cents: 500, currency: 'usd' },
    { id: 'team', name: 'Team', credits: 2500, amount_cents: 2000, currency: 'usd' },
  ],
};

export const payment: Payment = {
  id: 'pay-1',
  pack_id: 'starter',
  pack_name: 'Starter',
  credits: 500,
  amount_cents: 500,
  currency: 'usd',
  status: 'succeeded',
  provider: 'test',
  refunded_cents: 0,
  created_at: '2026-11-18T12:00:00.000Z',
  completed_at: '2026-11-18T12:01:00.000Z',
};

const page = <T>(items: T[]) => ({ items, total: items.length, page: 1, page_size: 20 });

/** Everything the billing page asks for; override single calls with server.use(...). */
export function billingHandlers({
  balance = balanceOf(),
  records = [usageRecord],
  payments = [payment],
}: { balance?: Balance; records?: UsageRecord[]; payments?: Payment[] } = {}) {
  return [
    http.get(api('/balance/'), () => HttpResponse.json(balance)),
    http.get(api('/balance/usage-summary'), () => HttpResponse.json(usageSummary)),
    http.get(api('/usage-records/'), () => HttpResponse.json(page(records))),
    http.get(api('/payments/packs'), () => HttpResponse.json(creditPacks)),
    http.get(api('/payments/'), () => HttpResponse.json(page(payments))),
    http.get(api('/workflows'), () => HttpResponse.json(page([]))),
  ];
}
