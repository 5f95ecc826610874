import type { Db } from '../../db/database';
import { InvalidRecordsQuery, RECORD_ID, type DatasetMetadata, type Datasets, type JsonRecord, type RecordsQuery } from '../../engine/datasets';
import { notFound } from '../../lib/errors';
import { DatasetsRepository } from './datasets.repository';
import type { DatasetOut, RecordsPageOut } from './datasets.schemas';

const notFoundDataset = () => notFound('server.datasets.notFound');

/** Parents in the order of the step's inputs when the step run still says it; others after them. */
function inInputOrder<T extends { id: string }>(parents: T[], inputDatasetIds: string | undefined): T[] {
  let order: unknown;
  try {
    order = inputDatasetIds ? JSON.parse(inputDatasetIds) : null;
  } catch {
    return parents;
  }
  if (!Array.isArray(order)) return parents;
  const rank = (id: string) => {
    const at = order.indexOf(id);
    return at < 0 ? order.length : at;
  };
  return parents.map((p, i) => ({ p, i })).sort((a, b) => rank(a.p.id) - rank(b.p.id) || a.i - b.i).map(({ p }) => p);
}

/**
 * The Datasets calls: ownership from the `datasets` table, contents straight from the Parquet
 * snapshot through the engine's dataset layer. Another user's dataset is not found, exactly like a
 * missing one, before anything of the file is read.
 */
export class DatasetsService {
  private readonly repo: DatasetsRepository;

  constructor(
    db: Db,
    private readonly datasets: Datasets,
  ) {
    this.repo = new DatasetsRepository(db);
  }

  /**
   * Records a snapshot the run engine (or an import) has just written: the row and its lineage in
   * one transaction. Parents must be datasets of the same owner (lineage never points across users).
   */
  async registerDataset(meta: DatasetMetadata, options: { expiresAt?: string | null } = {}): Promise<void> {
    const parentIds = [...new Set(meta.parentIds)];
    const owned = await this.repo.ownedIds(meta.ownerId, parentIds);
    const foreign = parentIds.filter((id) => !owned.has(id));
    if (foreign.length) throw new Error(`Dataset ${meta.id}: parents not owned by ${meta.ownerId}: ${foreign.join(', ')}`);
    await this.repo.insert({ ...meta, parentIds }, options.expiresAt ?? null);
  }

  async get(userId: string, id: string, options: { includeLineage: boolean }): Promise<DatasetOut> {
    const stored = await this.owned(userId, id);
    const { meta } = stored;
    const [description, origin, parents] = await Promise.all([
      this.datasets.describe(meta),
      meta.stepRunId ? this.repo.originOf(meta.stepRunId) : undefined,
      options.includeLineage ? this.repo.parentsOf(userId, id) : undefined,
    ]);
    return {
      id: meta.id,
      name: meta.name,
      columns: description.columns,
      row_count: description.rowCount,
      bytes: description.bytes,
      step_run_id: meta.stepRunId,
      run_id: origin?.runId ?? null,
      workflow_id: origin?.workflowId ?? null,
      step_id: origin?.stepId ?? null,
      ...(parents ? { parents: inInputOrder(parents, origin?.inputDatasetIds) } : {}),
      created_at: meta.createdAt,
      expires_at: stored.expiresAt,
    };
  }

  /**
   * One page of records. `at` is where the request carried the query (`['query']`): the engine's
   * problems are located relative to the query, so they are answered under it.
   */
  async records(userId: string, id: string, query: RecordsQuery, at: (string | number)[]): Promise<RecordsPageOut> {
    const { meta } = await this.owned(userId, id);
    let page;
    try {
      page = await this.datasets.records(meta, query);
    } catch (error) {
      if (error instanceof InvalidRecordsQuery) throw error.at(at);
      throw error;
    }
    const typeOf = new Map(meta.columns.map((c) => [c.name, c.type]));
    const names = query.columns?.length ? [RECORD_ID, ...new Set(query.columns.filter((c) => c !== RECORD_ID))] : meta.columns.map((c) => c.name);
    return {
      items: page.items,
      total: page.total,
      page: page.page,
      page_size: page.pageSize,
      columns: names.map((name) => ({ name, type: typeOf.get(name) ?? 'UNKNOWN' })),
    };
  }

  async record(userId: string, id: string, recordId: string): Promise<JsonRecord> {
    const { meta } = await this.owned(userId, id);
    return this.datasets.record(meta, recordId);
  }

  private async owned(userId: string, id: string) {
    const stored = await this.repo.findOwned(userId, id);
    if (!stored) throw notFoundDataset();
    return stored;
  }
}
