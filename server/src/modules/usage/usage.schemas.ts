import { Type, type Static } from '@sinclair/typebox';
import { Id, Page, pageFields, StringEnum } from '../../http/common.schemas';
import { MAX_SAMPLE_SIZE } from '../../engine/run';
import { RUN_MODES } from '../../engine/run/run-states';

// Shapes of the Usage calls (docs: /work contract of issue 11). Credits are JSON numbers of credits
// (decimals allowed); the ledger stores micro-credits.

/** A calendar day; `usage.service` also checks it exists (2026-02-30 does not). */
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', minLength: 10, maxLength: 10, description: 'YYYY-MM-DD (UTC)' });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const BalanceOut = Type.Object({
  balance: Type.Number(),
  billing_enabled: Type.Boolean(),
  paused_runs: Type.Integer({ description: 'Runs paused because the credits ran out; they resume after a top-up' }),
});
export type BalanceOut = Static<typeof BalanceOut>;

export const USAGE_UNITS = ['record', 'run', 'token', 'call'] as const;

export const UsageRecordsQuery = Type.Object(
  {
    ...pageFields({ size: 50, maxSize: 200 }),
    start_date: Type.Optional(Day),
    end_date: Type.Optional(Day),
    workflow_id: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type UsageRecordsQuery = Static<typeof UsageRecordsQuery>;

export const UsageRecordOut = Type.Object({
  id: Type.String(),
  created_at: Type.String(),
  quantity: Type.Number(),
  unit: StringEnum([...USAGE_UNITS]),
  unit_price: Type.Number({ description: 'Credits per unit' }),
  credits: Type.Number({ description: 'Credits spent (positive)' }),
  workflow_id: Nullable(Type.String()),
  workflow_name: Nullable(Type.String()),
  step_id: Nullable(Type.String()),
  step_name: Nullable(Type.String()),
  step_type: Nullable(Type.String()),
  run_id: Nullable(Type.String()),
  step_run_id: Nullable(Type.String()),
  description: Nullable(Type.String()),
});
export type UsageRecordOut = Static<typeof UsageRecordOut>;
export const UsageRecordsOut = Page(UsageRecordOut);

export const SUMMARY_PERIODS = ['day', 'week', 'month'] as const;
export type SummaryPeriod = (typeof SUMMARY_PERIODS)[number];
export const SUMMARY_GROUPS = ['workflow', 'step_type'] as const;

export const UsageSummaryQuery = Type.Object(
  {
    period: StringEnum([...SUMMARY_PERIODS], { default: 'day' }),
    group_by: StringEnum([...SUMMARY_GROUPS], { default: 'workflow' }),
    start_date: Type.Optional(Day),
    end_date: Type.Optional(Day),
  },
  { additionalProperties: false },
);
export type UsageSummaryQuery = Static<typeof UsageSummaryQuery>;

export const UsageSummaryOut = Type.Object({
  period: StringEnum([...SUMMARY_PERIODS]),
  group_by: StringEnum([...SUMMARY_GROUPS]),
  start_date: Type.String(),
  end_date: Type.String(),
  total_credits: Type.Number(),
  buckets: Type.Array(
    Type.Object({
      start: Type.String({ description: 'YYYY-MM-DD: the first day of the day, week (Monday) or month' }),
      credits: Type.Number(),
      groups: Type.Record(Type.String(), Type.Number()),
    }),
  ),
  groups: Type.Array(Type.Object({ key: Type.String(), label: Type.String(), credits: Type.Number() })),
});
export type UsageSummaryOut = Static<typeof UsageSummaryOut>;

export const LEDGER_KINDS = ['grant', 'purchase', 'usage', 'refund', 'adjustment'] as const;

export const EntriesQuery = Type.Object(
  { ...pageFields({ size: 50, maxSize: 200 }), kind: Type.Optional(StringEnum([...LEDGER_KINDS])) },
  { additionalProperties: false },
);
export type EntriesQuery = Static<typeof EntriesQuery>;

export const EntryOut = Type.Object({
  id: Type.String(),
  kind: StringEnum([...LEDGER_KINDS]),
  credits: Type.Number({ description: 'Signed: positive in, negative out' }),
  description: Nullable(Type.String()),
  created_at: Type.String(),
  payment_id: Nullable(Type.String()),
});
export const EntriesOut = Page(EntryOut);

export const PricesOut = Type.Object({
  billing_enabled: Type.Boolean(),
  ai_token_price_per_1k: Type.Number(),
  steps: Type.Array(Type.Object({ step_type: Type.String(), per: StringEnum(['run', 'record']), credits: Type.Number() })),
});
export type PricesOut = Static<typeof PricesOut>;

export const CostEstimateParams = Type.Object({ workflow_id: Id });
export const CostEstimateQuery = Type.Object(
  {
    step_id: Type.Optional(Id),
    mode: Type.Optional(StringEnum([...RUN_MODES])),
    sample_size: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SAMPLE_SIZE })),
  },
  { additionalProperties: false },
);
export type CostEstimateQuery = Static<typeof CostEstimateQuery>;

export const CostEstimateOut = Type.Object({
  credits: Type.Number({ description: 'Credits the run is estimated at; when `unknown`, only the part that is known' }),
  unknown: Type.Boolean({
    description:
      "True when a priced per-record step's record count is not known before running (a line's `records` is null): its cost is not in `credits`, so the run's cost is unknown. A file chosen as a source is counted when uploaded; Excel and files too large to count cheaply stay unknown until a run.",
  }),
  balance: Type.Number(),
  enough: Type.Boolean(),
  billing_enabled: Type.Boolean(),
  lines: Type.Array(
    Type.Object({
      step_id: Type.String(),
      step_name: Type.String(),
      step_type: Type.String(),
      per: StringEnum(['run', 'record']),
      records: Type.Union([Type.Integer(), Type.Null()], {
        description: 'Records the step will read; null when not known before running (nothing is counted for it)',
      }),
      credits: Type.Number(),
      unknown: Type.Boolean({ description: 'A priced per-record step whose records are not known before running: its cost is unknown, not `credits` (0)' }),
    }),
  ),
});
export type CostEstimateOut = Static<typeof CostEstimateOut>;

export const AdjustmentIn = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 320 }),
    credits: Type.Number({ minimum: -1_000_000, maximum: 1_000_000, description: 'Signed; not 0' }),
    note: Type.String({ minLength: 1, maxLength: 500 }),
  },
  { additionalProperties: false },
);
export type AdjustmentIn = Static<typeof AdjustmentIn>;

export const AdjustmentOut = Type.Object({ balance: Type.Number(), message: Type.String() });
export type AdjustmentOut = Static<typeof AdjustmentOut>;
