import type { JsonRecord } from '../datasets';
import type { CallJournal, FinishedCall } from '../runners';
import type { RunStore } from './ports';

/** Most calls stored by one statement (bound parameters stay well under both databases' limits). */
const MAX_ROWS_PER_WRITE = 100;
/** A stored record's `_id` is its key; longer ids are cut like the usage keys. */
const MAX_KEY_LENGTH = 500;

interface Waiting {
  row: { step_run_id: string; call_key: string; result: string; failed: number; created_at: string };
  done: () => void;
  fail: (err: unknown) => void;
}

/**
 * One step run's finished outside calls in `step_run_calls` (migration 018). Each call is stored
 * on its own, before the step counts it as done; the calls that finish in the same turn of the
 * event loop, or while a write is under way, go together in one statement (a group commit), so
 * checkpointing every answer costs one statement per round of concurrent calls, not one per call. Rows are dropped when their batch is stored
 * (`forget`): the batch's part then holds the same results.
 */
export class StoredCallJournal implements CallJournal {
  private waiting: Waiting[] = [];
  private writing = false;

  constructor(
    private readonly repo: RunStore,
    private readonly stepRunId: string,
  ) {}

  async finished(keys: readonly string[]): Promise<Map<string, FinishedCall>> {
    const found = new Map<string, FinishedCall>();
    const rows = await this.repo.finishedCalls(this.stepRunId, [...new Set(keys.map(keyOf))]);
    for (const row of rows) found.set(row.call_key, { row: JSON.parse(row.result) as JsonRecord, failed: Number(row.failed) === 1 });
    return found;
  }

  record(key: string, call: FinishedCall): Promise<void> {
    const row = {
      step_run_id: this.stepRunId,
      call_key: keyOf(key),
      result: JSON.stringify(call.row),
      failed: call.failed ? 1 : 0,
      created_at: new Date().toISOString(),
    };
    return new Promise((done, fail) => {
      this.waiting.push({ row, done, fail });
      // One turn of the event loop first: the answers that arrive in the same turn go in one
      // statement (SQLite answers at once, so without it every call would be a write of its own).
      if (!this.writing) {
        this.writing = true;
        setImmediate(() => void this.writeWaiting());
      }
    });
  }

  /** The checkpoints of records whose batch is now stored. */
  forget(keys: Iterable<string>): Promise<void> {
    return this.repo.forgetCalls(this.stepRunId, [...new Set([...keys].map(keyOf))]);
  }

  private async writeWaiting(): Promise<void> {
    try {
      while (this.waiting.length) {
        const group = this.waiting.splice(0, MAX_ROWS_PER_WRITE);
        try {
          // The same key twice in one statement would make PostgreSQL refuse the upsert: the last wins.
          await this.repo.saveCalls([...new Map(group.map((w) => [w.row.call_key, w.row])).values()]);
          for (const w of group) w.done();
        } catch (err) {
          for (const w of group) w.fail(err);
        }
      }
    } finally {
      this.writing = false;
    }
  }
}

const keyOf = (key: string) => key.slice(0, MAX_KEY_LENGTH);
