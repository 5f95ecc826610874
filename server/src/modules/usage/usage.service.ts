import { randomUUID } from 'node:crypto';
import type { Config } from '../../config/config';
import type { Db } from '../../db/database';
import { getStepDescription } from '../../engine/step-types';
import type { Language } from '../../i18n/messages';
import { invalid, notFound } from '../../lib/errors';
import { normalizeEmail } from '../auth/auth.service';
import type { RunEngine } from '../../engine/run';
import { RunLookupsService } from '../runs/run-lookups.service';
import { ADMIN, requireRole } from '../users/roles';
import type { Role } from '../users/users.schemas';
import { UserAccountsService } from '../users/user-accounts.service';
import { roundCreditsForPeople, toCredits, toMicro, type LedgerEntry } from './ledger';
import { Prices } from './prices';
import { UsageRepository, type Window } from './usage.repository';
import type {
  AdjustmentIn,
  AdjustmentOut,
  BalanceOut,
  CostEstimateOut,
  CostEstimateQuery,
  EntriesQuery,
  PricesOut,
  SummaryPeriod,
  UsageRecordOut,
  UsageRecordsQuery,
  UsageSummaryOut,
  UsageSummaryQuery,
} from './usage.schemas';

/** The ledger as `app.credits` offers it: appends that tell who was credited (runs paused for credits resume). */
export interface CreditsAccess {
  append(entries: readonly LedgerEntry[]): Promise<LedgerEntry[]>;
  balanceMicro(userId: string): Promise<number>;
}

/** The longest window a usage list or summary may cover. */
export const MAX_RANGE_DAYS = 400;
/** Without dates: the last 30 days, today included. */
const DEFAULT_RANGE_DAYS = 30;
const DAY_MS = 86_400_000;

type Translate = (key: string, values?: Record<string, string | number>) => string;

const day = (date: Date) => date.toISOString().slice(0, 10);
const at = (isoDay: string) => new Date(`${isoDay}T00:00:00.000Z`);

/** A `YYYY-MM-DD` that names a real day (the schema checked the shape). */
function parseDay(value: string, loc: string[]): Date {
  const date = at(value);
  if (Number.isNaN(date.getTime()) || day(date) !== value) throw invalid('server.usage.badDate', loc);
  return date;
}

/** The first day of the period holding `date`: itself, its week's Monday, or its month's 1st (UTC). */
function bucketStart(date: Date, period: SummaryPeriod): Date {
  const d = at(day(date));
  if (period === 'week') d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  if (period === 'month') d.setUTCDate(1);
  return d;
}

function nextBucket(d: Date, period: SummaryPeriod): Date {
  const n = new Date(d);
  if (period === 'day') n.setUTCDate(n.getUTCDate() + 1);
  else if (period === 'week') n.setUTCDate(n.getUTCDate() + 7);
  else n.setUTCMonth(n.getUTCMonth() + 1);
  return n;
}

/** Credits for people: micro-credits summed exactly, shown as a number of credits. */
const credits = (micro: number) => toCredits(Math.round(micro));

/**
 * Credits for one user: balance, usage records and summaries, ledger entries, prices, a run's
 * estimate, and admins' adjustments. The ledger itself (`Ledger`, `app.credits`) writes; this reads,
 * except for adjustments, which go through `app.credits` so runs paused for credits resume.
 */
export class UsageService {
  private readonly repo: UsageRepository;
  private readonly runs: RunLookupsService;
  private readonly users: UserAccountsService;
  private readonly prices: Prices;

  constructor(
    db: Db,
    private readonly config: Config,
    private readonly credits: CreditsAccess,
    private readonly engine: RunEngine,
  ) {
    this.repo = new UsageRepository(db);
    this.runs = new RunLookupsService(db);
    this.users = new UserAccountsService(db);
    this.prices = new Prices(config.billing);
  }

  private get billing() {
    return this.config.billing;
  }

  async balance(userId: string): Promise<BalanceOut> {
    if (!this.billing.enabled) return { balance: 0, billing_enabled: false, paused_runs: 0 };
    const [micro, paused] = await Promise.all([this.credits.balanceMicro(userId), this.runs.countPausedForCredits(userId)]);
    return { balance: credits(micro), billing_enabled: true, paused_runs: paused };
  }

  /** The window of a list or summary: both dates inclusive, at most MAX_RANGE_DAYS days; default the last 30 days. */
  window(start: string | undefined, end: string | undefined): { from: Date; to: Date } {
    const to = end ? parseDay(end, ['query', 'end_date']) : at(day(new Date()));
    const from = start ? parseDay(start, ['query', 'start_date']) : new Date(to.getTime() - (DEFAULT_RANGE_DAYS - 1) * DAY_MS);
    const days = Math.round((to.getTime() - from.getTime()) / DAY_MS) + 1;
    if (days < 1 || days > MAX_RANGE_DAYS) throw invalid('server.usage.badDateRange', ['query', end ? 'end_date' : 'start_date'], { days: MAX_RANGE_DAYS });
    return { from, to };
  }

  private static sqlWindow(w: { from: Date; to: Date }): Window {
    return { from: w.from.toISOString(), to: new Date(w.to.getTime() + DAY_MS).toISOString() };
  }

  async usageRecords(userId: string, q: UsageRecordsQuery) {
    // Without dates a list shows everything (the window is a filter here, not a chart's span).
    const window = q.start_date || q.end_date ? UsageService.sqlWindow(this.window(q.start_date, q.end_date)) : null;
    const workflowId = q.workflow_id ?? null;
    const [rows, total] = await Promise.all([
      this.repo.listUsage(userId, window, workflowId, q.page_size, (q.page - 1) * q.page_size),
      this.repo.countUsage(userId, window, workflowId),
    ]);
    const items: UsageRecordOut[] = rows.map((r) => ({
      id: r.id,
      created_at: r.created_at,
      quantity: Number(r.quantity ?? 0),
      unit: (r.unit ?? 'run') as UsageRecordOut['unit'],
      unit_price: credits(Number(r.unit_price_micro ?? 0)),
      credits: credits(-Number(r.credits_micro)),
      workflow_id: r.workflow_id,
      workflow_name: r.workflow_name ?? null,
      step_id: r.step_id,
      step_name: r.step_name ?? r.description ?? null,
      step_type: r.step_type,
      run_id: r.run_id,
      step_run_id: r.step_run_id,
      description: r.description,
    }));
    return { items, total, page: q.page, page_size: q.page_size };
  }

  async summary(userId: string, q: UsageSummaryQuery, language: Language): Promise<UsageSummaryOut> {
    const range = this.window(q.start_date, q.end_date);
    const rows = await this.repo.usageForSummary(userId, UsageService.sqlWindow(range));
    const buckets = new Map<string, { micro: number; groups: Map<string, number> }>();
    for (let b = bucketStart(range.from, q.period); b <= range.to; b = nextBucket(b, q.period)) buckets.set(day(b), { micro: 0, groups: new Map() });
    const groupTotals = new Map<string, number>();
    let total = 0;
    for (const r of rows) {
      const micro = -Number(r.credits_micro);
      const key = (q.group_by === 'workflow' ? r.workflow_id : r.step_type) ?? 'other';
      const bucket = buckets.get(day(bucketStart(new Date(r.created_at), q.period)));
      if (!bucket) continue;
      bucket.micro += micro;
      bucket.groups.set(key, (bucket.groups.get(key) ?? 0) + micro);
      groupTotals.set(key, (groupTotals.get(key) ?? 0) + micro);
      total += micro;
    }
    const names = q.group_by === 'workflow' ? await this.repo.workflowNames(userId, [...groupTotals.keys()]) : new Map<string, string>();
    const label = (key: string) => {
      if (q.group_by === 'workflow') return names.get(key) ?? key;
      const type = getStepDescription(key);
      return (language === 'zh-CN' ? type?.i18n?.['zh-CN']?.name : undefined) ?? type?.name ?? key;
    };
    return {
      period: q.period,
      group_by: q.group_by,
      start_date: day(range.from),
      end_date: day(range.to),
      total_credits: credits(total),
      buckets: [...buckets].map(([start, b]) => ({
        start,
        credits: credits(b.micro),
        groups: Object.fromEntries([...b.groups].map(([k, v]) => [k, credits(v)])),
      })),
      groups: [...groupTotals].sort((a, b) => b[1] - a[1]).map(([key, micro]) => ({ key, label: label(key), credits: credits(micro) })),
    };
  }

  async entries(userId: string, q: EntriesQuery) {
    const kind = q.kind ?? null;
    const [rows, total] = await Promise.all([
      this.repo.listEntries(userId, kind, q.page_size, (q.page - 1) * q.page_size),
      this.repo.countEntries(userId, kind),
    ]);
    return {
      items: rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        credits: credits(Number(r.credits_micro)),
        description: r.description,
        created_at: r.created_at,
        payment_id: r.payment_id,
      })),
      total,
      page: q.page,
      page_size: q.page_size,
    };
  }

  priceList(): PricesOut {
    return {
      billing_enabled: this.billing.enabled,
      ai_token_price_per_1k: this.prices.aiTokenPricePer1k,
      steps: this.prices.all().map((p) => ({ step_type: p.stepType, per: p.per, credits: p.credits })),
    };
  }

  async costEstimate(userId: string, workflowId: string, q: CostEstimateQuery): Promise<CostEstimateOut> {
    const estimate = await this.engine.estimate(userId, workflowId, q.step_id ?? null, { mode: q.mode ?? 'all', sampleSize: q.sample_size ?? null });
    const balance = this.billing.enabled ? await this.credits.balanceMicro(userId) : 0;
    return {
      credits: credits(estimate.creditsMicro),
      unknown: estimate.unknown,
      balance: credits(balance),
      enough: !this.billing.enabled || balance >= estimate.creditsMicro,
      billing_enabled: this.billing.enabled,
      lines: estimate.lines.map((l) => ({
        step_id: l.stepId,
        step_name: l.stepName,
        step_type: l.stepType,
        per: l.per,
        records: l.records,
        credits: credits(l.creditsMicro),
        unknown: l.per === 'record' && l.records === null && l.unitMicro > 0,
      })),
    };
  }

  /** An admin adds or removes credits (a goodwill grant, a correction); positive ones resume runs paused for credits. */
  async adjust(admin: { id: string; role: Role }, input: AdjustmentIn, t: Translate): Promise<AdjustmentOut> {
    requireRole(admin, ADMIN);
    const micro = toMicro(input.credits);
    if (micro === 0) throw invalid('server.usage.zeroAdjustment', ['body', 'credits']);
    const email = normalizeEmail(input.email);
    const user = await this.users.byEmail(email);
    if (!user) throw notFound('server.usage.userNotFound');
    await this.credits.append([
      {
        userId: user.id,
        kind: 'adjustment',
        creditsMicro: micro,
        idempotencyKey: `adjustment:${randomUUID()}`,
        description: input.note.trim() || input.note,
        actorId: admin.id,
      },
    ]);
    const balanceMicro = await this.credits.balanceMicro(user.id);
    const shown = { email, credits: roundCreditsForPeople(micro), balance: roundCreditsForPeople(balanceMicro) };
    return { balance: credits(balanceMicro), message: t('server.usage.adjusted', shown) };
  }
}
