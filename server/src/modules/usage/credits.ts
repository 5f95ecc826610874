import type { Ledger, LedgerEntry } from './ledger';

type CreditedListener = (userId: string) => Promise<void> | void;

/**
 * The ledger plus one signal: "credits arrived for this user" (a purchase, a grant, a positive
 * adjustment), so runs paused for lack of credits can resume without the payment code knowing
 * about runs.
 */
export class Credits {
  readonly ledger: Ledger;
  private readonly listeners = new Set<CreditedListener>();

  constructor(
    ledger: Ledger,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {
    this.ledger = ledger;
  }

  onCredited(listener: CreditedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Appends entries (idempotently) and, for users whose balance rose, tells the listeners. */
  async append(entries: readonly LedgerEntry[]): Promise<LedgerEntry[]> {
    const added = await this.ledger.append(entries);
    const credited = new Set(added.filter((e) => e.creditsMicro > 0).map((e) => e.userId));
    for (const userId of credited) {
      for (const listener of this.listeners) {
        try {
          await listener(userId);
        } catch (err) {
          this.log.warn({ err, userId }, 'a credits listener failed');
        }
      }
    }
    return added;
  }

  balanceMicro(userId: string): Promise<number> {
    return this.ledger.balanceMicro(userId);
  }
}
