import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database';

export interface UsageEvent {
  userId: string;
  /** `storage.upload`, `storage.delete`, or a step's work such as `step.http_request.call`. */
  kind: string;
  quantity: number;
  refId: string;
  /** The same event recorded twice (a retry) counts once. */
  idempotencyKey: string;
}

/** Append-only usage events; issue 6/6 prices them. */
export class UsageEventsRepository {
  constructor(private readonly db: Db) {}

  async record(events: UsageEvent[]): Promise<void> {
    if (!events.length) return;
    const now = new Date().toISOString();
    await this.db
      .insertInto('usage_events')
      .values(
        events.map((e) => ({
          id: randomUUID(),
          user_id: e.userId,
          kind: e.kind,
          quantity: e.quantity,
          ref_id: e.refId,
          idempotency_key: e.idempotencyKey,
          created_at: now,
        })),
      )
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .execute();
  }
}
