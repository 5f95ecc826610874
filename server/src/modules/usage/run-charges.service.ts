import type { Db } from '../../db/database';
import { toCredits } from './ledger';
import { UsageRepository } from './usage.repository';

/**
 * The usage area's answer for the runs area: what runs were charged. A run's cost is what its
 * usage rows in the credit ledger say (every charge of a step run names its run), so a list of
 * runs and the billing page's records always agree.
 */
export class RunChargesService {
  private readonly usage: UsageRepository;

  constructor(db: Db) {
    this.usage = new UsageRepository(db);
  }

  /** Credits charged for each of the user's `runIds`, in one query; 0 for a run charged nothing. */
  async creditsByRun(userId: string, runIds: readonly string[]): Promise<Map<string, number>> {
    const micro = await this.usage.chargedByRun(userId, runIds);
    return new Map(runIds.map((id) => [id, toCredits(micro.get(id) ?? 0)]));
  }
}
