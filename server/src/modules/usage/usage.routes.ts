import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { currentUser } from '../../plugins/authentication';
import {
  AdjustmentIn,
  AdjustmentOut,
  BalanceOut,
  CostEstimateOut,
  CostEstimateParams,
  CostEstimateQuery,
  EntriesOut,
  EntriesQuery,
  PricesOut,
  UsageRecordsOut,
  UsageRecordsQuery,
  UsageSummaryOut,
  UsageSummaryQuery,
} from './usage.schemas';
import { UsageService } from './usage.service';

const tags = ['Usage'];

/** The Usage calls (balance, usage records and summary, ledger entries, prices, estimates, admin adjustments), under /api/v1. */
const usageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const usage = new UsageService(app.db, app.config, app.credits, app.runs);

  app.get('/balance/', { schema: { tags, summary: 'Credits left, and how many runs wait for credits', response: { 200: BalanceOut } } }, async (req) =>
    usage.balance(currentUser(req).id),
  );

  app.get(
    '/usage-records/',
    {
      schema: {
        tags,
        summary: 'What credits were spent on, newest first: one record per step run batch and unit, filtered by dates and workflow',
        querystring: UsageRecordsQuery,
        response: { 200: UsageRecordsOut },
      },
    },
    async (req) => usage.usageRecords(currentUser(req).id, req.query),
  );

  app.get(
    '/balance/usage-summary',
    {
      schema: {
        tags,
        summary: 'Credits spent per day, week or month, by workflow or step type (every period in the range, empty ones as 0)',
        querystring: UsageSummaryQuery,
        response: { 200: UsageSummaryOut },
      },
    },
    async (req) => usage.summary(currentUser(req).id, req.query, req.language),
  );

  app.get(
    '/balance/entries',
    {
      schema: { tags, summary: 'The credit ledger: grants, purchases, usage, refunds, adjustments', querystring: EntriesQuery, response: { 200: EntriesOut } },
    },
    async (req) => usage.entries(currentUser(req).id, req.query),
  );

  app.get('/balance/prices', { schema: { tags, summary: 'What each step type and AI tokens cost', response: { 200: PricesOut } } }, async (req) => {
    currentUser(req);
    return usage.priceList();
  });

  app.get(
    '/workflows/:workflow_id/cost-estimate',
    {
      schema: {
        tags,
        summary: 'What running the workflow (or a step, as run start takes it) would cost, and whether the balance covers it',
        params: CostEstimateParams,
        querystring: CostEstimateQuery,
        response: { 200: CostEstimateOut },
      },
    },
    async (req) => usage.costEstimate(currentUser(req).id, req.params.workflow_id, req.query),
  );

  app.post(
    '/balance/admin/adjustments',
    { schema: { tags, summary: 'Admins: add or remove credits of an account', body: AdjustmentIn, response: { 200: AdjustmentOut } } },
    async (req) => usage.adjust(currentUser(req), req.body, req.t.bind(req)),
  );
};

export default usageRoutes;
