import type { Db } from '../../db/database';
import {
  InvalidRecordsQuery,
  RECORD_ID,
  RECORDS_LIMITS,
  type CompareQuery,
  type DatasetDescription,
  type DatasetMetadata,
  type Datasets,
  type ExportedFile,
  type ExportFormat,
  type ExportOptions,
  type JsonRecord,
  type RecordsQuery,
} from '../../engine/datasets';
import { notFound, ValidationFailed } from '../../lib/errors';
import { DatasetsRepository } from './datasets.repository';
import type { ColumnValuesOut, CompareOut, DatasetListOut, DatasetOut, RecordsPageOut, SiblingsOut } from './datasets.schemas';

/** Siblings answered at most: a step run many times lists its latest outputs. */
export const MAX_SIBLINGS = 50;

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
  return parents
    .map((p, i) => ({ p, i }))
    .sort((a, b) => rank(a.p.id) - rank(b.p.id) || a.i - b.i)
    .map(({ p }) => p);
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

  /** A page of this user's datasets that have not expired, newest first, with the workflow and step that made each. */
  async list(userId: string, query: { page: number; pageSize: number; q?: string }): Promise<DatasetListOut> {
    const { total, rows } = await this.repo.list(userId, {
      q: query.q?.trim() || undefined,
      now: new Date().toISOString(),
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    return {
      items: rows.map((r) => ({
        id: r.id,
        name: r.name,
        // Deferred (not written yet): the count is not known until someone opens it.
        row_count: r.recipe ? null : Number(r.row_count),
        bytes: Number(r.bytes),
        created_at: r.created_at,
        expires_at: r.expires_at,
        workflow_id: r.workflow_id ?? null,
        workflow_name: r.workflow_name ?? null,
        step_id: r.step_id ?? null,
      })),
      total,
      page: query.page,
      page_size: query.pageSize,
    };
  }

  /** The dataset's metadata if this user owns it (the run engine's inputs). */
  async findOwned(userId: string, id: string): Promise<DatasetMetadata | undefined> {
    return (await this.repo.findOwned(userId, id))?.meta;
  }

  async get(userId: string, id: string, options: { includeLineage: boolean }): Promise<DatasetOut> {
    const stored = await this.ownedAsIs(userId, id);
    const { meta } = stored;
    const [description, origin, parents] = await Promise.all([
      this.describe(meta),
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
   * One page of records. A deferred dataset's first pages in file order come from its recipe while
   * its snapshot is written in the background; anything else reads the snapshot (written first).
   * `at` is where the request carried the query (`['query']`): the engine's problems are located
   * relative to the query, so they are answered under it.
   */
  async records(userId: string, id: string, query: RecordsQuery, at: (string | number)[]): Promise<RecordsPageOut> {
    const asIs = await this.ownedAsIs(userId, id);
    const fromRecipe = asIs.meta.recipe && inFileOrder(query) ? asIs.meta.recipe : null;
    const { meta } = fromRecipe ? asIs : await this.owned(userId, id);
    let page;
    try {
      if (fromRecipe) this.datasets.files.materializeSoon(meta.storageKey);
      page = fromRecipe
        ? await this.datasets.recipePage(fromRecipe, query.page ?? 1, query.pageSize ?? RECORDS_LIMITS.defaultPageSize)
        : await this.datasets.records(meta, query);
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

  /**
   * What changed from the dataset `withId` (before) to this one (after), matched by `query.key`.
   * Both must be this user's; either missing is the same 404. Problems with the query are
   * answered under `at`.
   */
  async compare(userId: string, id: string, withId: string, query: CompareQuery, at: (string | number)[]): Promise<CompareOut> {
    const [after, before] = await Promise.all([this.owned(userId, id), this.owned(userId, withId)]);
    let result;
    try {
      result = await this.datasets.compare(before.meta, after.meta, query);
    } catch (error) {
      if (error instanceof InvalidRecordsQuery) throw error.at(at);
      throw error;
    }
    return {
      schema: { added: result.schema.added, removed: result.schema.removed, type_changed: result.schema.typeChanged },
      counts: result.counts,
      items: result.items,
      total: result.total,
      page: result.page,
      page_size: result.pageSize,
    };
  }

  /**
   * A column's most frequent values and how many distinct ones it has. Read over the dataset as it
   * is (a deferred one through its recipe, nothing written); an unknown column is a 422 at
   * `query.column`.
   */
  async values(userId: string, id: string, column: string, limit: number): Promise<ColumnValuesOut> {
    const { meta } = await this.ownedAsIs(userId, id);
    if (column === RECORD_ID || !meta.columns.some((c) => c.name === column)) {
      throw new ValidationFailed([{ key: 'server.datasets.unknownColumn', values: { column }, loc: ['query', 'column'] }]);
    }
    const { values, distinct } = await this.datasets.topValues(meta, column, limit);
    return { column, values, distinct };
  }

  /** Other outputs of the step that made this dataset, newest first (none for a dataset made outside a run). */
  async siblings(userId: string, id: string): Promise<SiblingsOut> {
    const { meta } = await this.owned(userId, id);
    const origin = meta.stepRunId ? await this.repo.originOf(meta.stepRunId) : undefined;
    if (!origin) return { items: [] };
    const rows = await this.repo.siblingsOf(userId, origin, id, MAX_SIBLINGS);
    return {
      items: rows.map((r) => ({
        id: r.id,
        name: r.name,
        run_id: r.run_id,
        row_count: r.recipe ? null : Number(r.row_count),
        created_at: r.created_at,
        expires_at: r.expires_at,
      })),
    };
  }

  /**
   * The whole dataset as a file to stream (`file.done()` once sent) and the name to save it under.
   * A CSV's formula cells are neutralised unless `options.raw` (engine/datasets/csv-cells.ts).
   */
  async download(
    userId: string,
    id: string,
    format: ExportFormat,
    options: ExportOptions = {},
    at: (string | number)[] = ['query'],
  ): Promise<{ file: ExportedFile; fileName: string }> {
    const { meta } = await this.owned(userId, id);
    try {
      const file = await this.datasets.export(meta, format, options);
      return { file, fileName: `${meta.name}.${format}` };
    } catch (error) {
      // The view's problems (an unknown column, a value of the wrong type) are answered under the query.
      if (error instanceof InvalidRecordsQuery) throw error.at(at);
      throw error;
    }
  }

  /**
   * Columns, count and size. A deferred dataset's come from its recipe (its count by DuckDB, its
   * size unknown: 0), while its snapshot is written in the background, so opening a fresh output
   * does not wait for a million rows to be written.
   */
  private async describe(meta: DatasetMetadata): Promise<DatasetDescription> {
    if (!meta.recipe) return this.datasets.describe(meta);
    this.datasets.files.materializeSoon(meta.storageKey);
    return { columns: meta.recipe.columns, rowCount: await this.datasets.countRecipe(meta.recipe), bytes: 0 };
  }

  /** The dataset if this user owns it, deferred or not. */
  private async ownedAsIs(userId: string, id: string) {
    const stored = await this.repo.findOwned(userId, id);
    if (!stored) throw notFoundDataset();
    return stored;
  }

  /**
   * The dataset if this user owns it. A deferred one is materialized first (written once, or found
   * written by a run that crashed before saying so), so what is answered — counts, records,
   * downloads — is the stored snapshot's.
   */
  private async owned(userId: string, id: string) {
    const stored = await this.repo.findOwned(userId, id);
    if (!stored) throw notFoundDataset();
    if (stored.meta.recipe && this.datasets.files.materializer && (await this.datasets.files.materializer(stored.meta.storageKey))) {
      return (await this.repo.findOwned(userId, id)) ?? stored;
    }
    return stored;
  }
}

/** Pages over the first this many records of a deferred dataset are read from its recipe (LIMIT/OFFSET reads up to there). */
const RECIPE_PAGES_UP_TO = 10_000;

/** A page in file order with every column, near the start: what a deferred dataset answers from its recipe. */
function inFileOrder(query: RecordsQuery): boolean {
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? RECORDS_LIMITS.defaultPageSize;
  return !query.sort?.length && !query.filters?.length && !query.columns?.length && page * pageSize <= RECIPE_PAGES_UP_TO;
}
