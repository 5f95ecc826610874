import type { Log } from '../../lib/logger';
import type { Datasets } from '../datasets';
import type { DatasetCatalog, RunStore } from './ports';

/** A finished step run whose output's count it did not know (a deferred output). */
export interface UncountedStepRun {
  id: string;
  output_dataset_id: string;
}

/**
 * Counts of deferred outputs, found the first time someone reads the run (issue 12's "a count for
 * every step's output, computed on first view, never by writing 1M rows"). A SQL step or an
 * import registers a recipe instead of writing its snapshot, so its step run ends without a
 * count; DuckDB counts the recipe's rows (nothing is written, only the files under it are read)
 * and the count is kept on the step run, so each output is counted once. A count that takes
 * longer than a reader waits is kept when it ends and shown by the next read. An output of at most
 * `smallOutputRows` rows is then written in the background, so its first opening is quick.
 */
export class OutputCounts {
  /** Deferred outputs of at most this many rows are written as soon as they are counted (tests of opening set 0). */
  static smallOutputRows = 10_000;

  /** Counts under way in this process, by dataset: readers asking at once share one count. */
  private readonly counting = new Map<string, Promise<number | null>>();
  /** The count under way (see count): the next waits for it. */
  private lane: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: { datasets: Datasets; datasetCatalog: DatasetCatalog; runs: RunStore; log: Log }) {}

  /** The counts of these step runs' outputs that are ready within `waitMs`, by step run id. */
  async of(userId: string, stepRuns: readonly UncountedStepRun[], waitMs: number): Promise<Map<string, number>> {
    const byDataset = new Map<string, string[]>();
    for (const s of stepRuns) byDataset.set(s.output_dataset_id, [...(byDataset.get(s.output_dataset_id) ?? []), s.id]);
    const counts = new Map<string, number>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
    await Promise.race([
      waited,
      Promise.all(
        [...byDataset].map(async ([datasetId, stepRunIds]) => {
          const count = await this.count(userId, datasetId, stepRunIds);
          if (count !== null) for (const id of stepRunIds) counts.set(id, count);
        }),
      ),
    ]);
    clearTimeout(timer);
    return counts;
  }

  private count(userId: string, datasetId: string, stepRunIds: string[]): Promise<number | null> {
    let pending = this.counting.get(datasetId);
    if (!pending) {
      // One count at a time: each is a scan with all of DuckDB's threads, so running a run's four
      // counts at once is no faster, and holds four scans' memory at once.
      pending = this.lane.then(() => this.countAndKeep(userId, datasetId, stepRunIds)).finally(() => this.counting.delete(datasetId));
      this.lane = pending.catch(() => null);
      this.counting.set(datasetId, pending);
    }
    return pending;
  }

  private async countAndKeep(userId: string, datasetId: string, stepRunIds: string[]): Promise<number | null> {
    try {
      const meta = await this.deps.datasetCatalog.findOwned(userId, datasetId);
      // Gone (expired, deleted): nothing to count. Written since (opened meanwhile): its own count.
      if (!meta) return null;
      const count = meta.recipe ? await this.deps.datasets.countRecipe(meta.recipe) : meta.rowCount;
      await this.deps.runs.setOutputCount(stepRunIds, count);
      // A small output (a summary, a top 50) is what people open: written now, in the background,
      // its first page is read from a tiny snapshot instead of running its whole chain again.
      if (meta.recipe && count <= OutputCounts.smallOutputRows) this.deps.datasets.files.materializeSoon(meta.storageKey);
      return count;
    } catch (err) {
      // The run reads as before (its count unknown); the next read tries again.
      this.deps.log.warn({ err, datasetId }, 'could not count a deferred output');
      return null;
    }
  }
}
