import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { LedgerKind } from '../../db/schema';

/** A time window over the ledger: `from` inclusive, `to` exclusive (ISO 8601 instants). */
export interface Window {
  from: string;
  to: string;
}

/** Reads a user's credit ledger (rows are written by `Ledger` only). */
export class UsageRepository {
  constructor(private readonly db: Db) {}

  /** A user's usage rows, in the window when one is given (a list without dates shows them all). */
  private usageRows(userId: string, window: Window | null, workflowId: string | null) {
    let q = this.db.selectFrom('credit_ledger as l').where('l.user_id', '=', userId).where('l.kind', '=', 'usage');
    if (window) q = q.where('l.created_at', '>=', window.from).where('l.created_at', '<', window.to);
    if (workflowId) q = q.where('l.workflow_id', '=', workflowId);
    return q;
  }

  /** Usage rows, newest first, with the names their workflow and step have now (null once deleted). */
  listUsage(userId: string, window: Window | null, workflowId: string | null, limit: number, offset: number) {
    return this.usageRows(userId, window, workflowId)
      .leftJoin('workflows as w', (j) => j.onRef('w.id', '=', 'l.workflow_id').on('w.owner_id', '=', userId))
      .leftJoin('workflow_steps as s', 's.id', 'l.step_id')
      .select([
        'l.id',
        'l.created_at',
        'l.quantity',
        'l.unit',
        'l.unit_price_micro',
        'l.credits_micro',
        'l.workflow_id',
        'w.name as workflow_name',
        'l.step_id',
        's.name as step_name',
        'l.step_type',
        'l.run_id',
        'l.step_run_id',
        'l.description',
      ])
      .orderBy('l.created_at', 'desc')
      .orderBy('l.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async countUsage(userId: string, window: Window | null, workflowId: string | null): Promise<number> {
    const row = await this.usageRows(userId, window, workflowId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * The few fields a summary adds up, for every usage row in the window. Bucketing by day, week or
   * month happens in TypeScript: the two databases spell date truncation differently, and a
   * window is bounded (400 days).
   */
  usageForSummary(userId: string, window: Window) {
    return this.usageRows(userId, window, null).select(['l.created_at', 'l.credits_micro', 'l.workflow_id', 'l.step_type']).execute();
  }

  /** Names of the user's workflows among `ids` (deleted ones are absent). */
  async workflowNames(userId: string, ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await this.db.selectFrom('workflows').select(['id', 'name']).where('owner_id', '=', userId).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  private entryRows(userId: string, kind: LedgerKind | null) {
    let q = this.db.selectFrom('credit_ledger').where('user_id', '=', userId);
    if (kind) q = q.where('kind', '=', kind);
    return q;
  }

  listEntries(userId: string, kind: LedgerKind | null, limit: number, offset: number) {
    return this.entryRows(userId, kind)
      .select(['id', 'kind', 'credits_micro', 'description', 'created_at', 'payment_id'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async countEntries(userId: string, kind: LedgerKind | null): Promise<number> {
    const row = await this.entryRows(userId, kind)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * What each of `runIds` was charged, in micro-credits (positive): the sum of the user's usage
   * rows that name the run, grouped in one query. A run with no charge is absent.
   */
  async chargedByRun(userId: string, runIds: readonly string[]): Promise<Map<string, number>> {
    if (!runIds.length) return new Map();
    const rows = await this.db
      .selectFrom('credit_ledger')
      .select(['run_id', sql<number | string | null>`sum(credits_micro)`.as('total')])
      .where('user_id', '=', userId)
      .where('kind', '=', 'usage')
      .where('run_id', 'in', runIds)
      .groupBy('run_id')
      .execute();
    return new Map(rows.map((r) => [r.run_id!, -Number(r.total ?? 0)]));
  }
}
