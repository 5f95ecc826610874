import type { Db } from '../../db/database';
import { UsageEventsRepository, type UsageEvent } from './usage-events.repository';

export type { UsageEvent };

/**
 * Where other areas record what a user used (stored bytes, deleted files): the usage area owns
 * the events, prices them and shows them. Built on a transaction, the events commit or roll back
 * with the change they count.
 */
export class UsageEventsService {
  private readonly events: UsageEventsRepository;

  constructor(db: Db) {
    this.events = new UsageEventsRepository(db);
  }

  /** Appends the events; one already recorded (same idempotency key) counts once. */
  record(events: UsageEvent[]): Promise<void> {
    return this.events.record(events);
  }
}
