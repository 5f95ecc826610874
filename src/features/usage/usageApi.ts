import type { CostEstimateOut } from '../../../server/src/modules/usage/usage.schemas';
import type { PageOf } from '../../../server/src/http/common.schemas';
import { baseApi } from '../../services/baseApi';
import { stepGoneFromCache } from '../workflows/stepGone';

// Spec area "Usage" (issue 11): the balance, what was spent (records and a summary for the chart),
// the ledger, prices and a workflow's cost estimate. Credits are plain numbers (decimals allowed);
// the server stores micro-credits. Shapes follow the issue 11 contract (_notes/ISSUE11.md).

export interface Balance {
  balance: number;
  billing_enabled: boolean;
  /** The user's runs paused because the credits ran out; they resume after a top-up. */
  paused_runs: number;
}

export type UsageUnit = 'record' | 'run' | 'token' | 'call';

export interface UsageRecord {
  id: string;
  created_at: string;
  quantity: number;
  unit: UsageUnit;
  unit_price: number;
  credits: number;
  workflow_id: string;
  workflow_name: string | null;
  step_id: string;
  step_name: string | null;
  step_type: string;
  run_id: string;
  step_run_id: string;
  description: string | null;
}

export interface UsageRecordsArgs {
  page?: number;
  pageSize?: number;
  /** YYYY-MM-DD, inclusive. */
  startDate?: string;
  endDate?: string;
  workflowId?: string;
}

export type UsagePeriod = 'day' | 'week' | 'month';
export type UsageGroupBy = 'workflow' | 'step_type';

export interface UsageSummary {
  period: UsagePeriod;
  group_by: UsageGroupBy;
  start_date: string;
  end_date: string;
  total_credits: number;
  /** Every bucket in the range, empty ones included. */
  buckets: { start: string; credits: number; groups: Record<string, number> }[];
  groups: { key: string; label: string; credits: number }[];
}

export interface UsageSummaryArgs {
  period?: UsagePeriod;
  groupBy?: UsageGroupBy;
  startDate?: string;
  endDate?: string;
}

export interface LedgerEntry {
  id: string;
  kind: string;
  /** Signed: positive adds credits, negative takes them. */
  credits: number;
  description: string | null;
  created_at: string;
  payment_id: string | null;
}

export interface Prices {
  billing_enabled: boolean;
  ai_token_price_per_1k: number;
  steps: { step_type: string; per: 'run' | 'record'; credits: number }[];
}

/** `unknown`: some priced step's records are only known when it runs, so `credits` is only the known part. */
export type CostEstimate = CostEstimateOut;

export interface CostEstimateArgs {
  workflowId: string;
  stepId?: string;
  mode?: string;
  sampleSize?: number;
}

/** Query parameters without the unset ones (the server rejects empty dates). */
const defined = (params: Record<string, string | number | undefined>) =>
  Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string | number>;

export const usageApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getBalance: build.query<Balance, void>({
      query: () => '/balance/',
      providesTags: [{ type: 'Balance', id: 'ME' }],
    }),
    listUsageRecords: build.query<PageOf<UsageRecord>, UsageRecordsArgs>({
      query: ({ page = 1, pageSize = 20, startDate, endDate, workflowId }) => ({
        url: '/usage-records/',
        params: defined({ page, page_size: pageSize, start_date: startDate, end_date: endDate, workflow_id: workflowId }),
      }),
      providesTags: [{ type: 'Usage', id: 'LIST' }],
    }),
    getUsageSummary: build.query<UsageSummary, UsageSummaryArgs>({
      query: ({ period, groupBy, startDate, endDate }) => ({
        url: '/balance/usage-summary',
        params: defined({ period, group_by: groupBy, start_date: startDate, end_date: endDate }),
      }),
      providesTags: [{ type: 'Usage', id: 'SUMMARY' }],
    }),
    listLedgerEntries: build.query<PageOf<LedgerEntry>, { page?: number; pageSize?: number; kind?: string }>({
      query: ({ page = 1, pageSize = 20, kind }) => ({ url: '/balance/entries', params: defined({ page, page_size: pageSize, kind }) }),
      providesTags: [{ type: 'Balance', id: 'ENTRIES' }],
    }),
    getPrices: build.query<Prices, void>({
      query: () => '/balance/prices',
    }),
    /**
     * Null when there is no estimate to show: the step is gone. A step the cached workflow no longer
     * has is not asked about; one gone from the server before the cache knew (another tab, an
     * agent's edit) answers 404, which here means "no estimate", not a "Step not found." notice.
     */
    getCostEstimate: build.query<CostEstimate | null, CostEstimateArgs>({
      queryFn: async ({ workflowId, stepId, mode, sampleSize }, api, _extra, baseQuery) => {
        if (stepGoneFromCache(api.getState(), workflowId, stepId)) return { data: null };
        const result = await baseQuery({
          url: `/workflows/${encodeURIComponent(workflowId)}/cost-estimate`,
          params: defined({ step_id: stepId, mode, sample_size: sampleSize }),
        });
        if (result.error) return stepId && result.error.status === 404 ? { data: null, meta: result.meta } : { error: result.error, meta: result.meta };
        return { data: result.data as CostEstimate, meta: result.meta };
      },
      // The estimate follows the workflow (its steps) and the balance.
      providesTags: (_r, _e, { workflowId }) => [
        { type: 'Workflow', id: workflowId },
        { type: 'Balance', id: 'ME' },
      ],
    }),
  }),
});

export const { useGetBalanceQuery, useListUsageRecordsQuery, useGetUsageSummaryQuery, useListLedgerEntriesQuery, useGetPricesQuery, useGetCostEstimateQuery } =
  usageApi;
