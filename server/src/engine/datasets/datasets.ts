import path from 'node:path';
import type { DatasetsConfig } from '../../config/config';
import type { Log } from '../../lib/logger';
import type { Storage } from '../../storage/storage';
import { DatasetComparer, type CompareQuery, type DatasetComparison } from './compare';
import { DuckDBPool } from './duckdb-pool';
import { DatasetExporter, type ExportedFile, type ExportFormat, type ExportOptions } from './exporter';
import { RECORD_ID, type DatasetColumn, type DatasetMetadata, type DatasetRef } from './metadata';
import { ParquetFiles, type LocalFile } from './parquet-files';
import { DatasetReader, type DatasetDescription, type RecordsPage } from './reader';
import { jsonRecords, type JsonRecord } from './json-values';
import type { RecordsQuery } from './records-query';
import { DatasetWriter, runBound, type WriteDataset } from './writer';
import {
  bareInputs,
  compose,
  isStableType,
  recipeRelation,
  resolveLeaves,
  storedRelation,
  withRecordIds,
  type DatasetRecipe,
  type RecipeLeaf,
  type RecipeParam,
  type Relation,
} from './recipe';
import { typeName } from './records-query';
import { InvalidDatasetInput } from './errors';
import { quoteIdent } from './sql';
import type { DuckDBConnection } from '@duckdb/node-api';

export interface DatasetsOptions {
  storage: Storage;
  config: DatasetsConfig;
  log?: Log;
  /** Tests and the bench: see DatasetReaderOptions. */
  orderedCopyMinRows?: number;
  /** Tests: a DuckDB of their own making instead of one from `config`. */
  pool?: DuckDBPool;
}

/** A column's most frequent values and how many distinct ones it has (Datasets.topValues). */
export interface ColumnValues {
  values: { value: unknown; count: number }[];
  distinct: number;
}

/** Counts of deferred datasets kept in memory; more and the memory starts over. */
const RECIPE_COUNTS_KEPT = 10_000;

/**
 * The dataset layer of one process: one DuckDB, one local file cache, a writer and a reader over
 * them. Nothing is opened until first used (DuckDB starts on the first query), so an API process
 * that never touches a dataset pays nothing. `close()` on shutdown.
 */
export class Datasets {
  /** Row counts of deferred datasets, by recipe (countRecipe). */
  private readonly recipeCounts = new Map<string, number>();
  readonly pool: DuckDBPool;
  readonly files: ParquetFiles;
  readonly reader: DatasetReader;
  readonly writer: DatasetWriter;
  readonly exporter: DatasetExporter;
  readonly comparer: DatasetComparer;
  readonly storage: Storage;

  constructor(options: DatasetsOptions) {
    const { storage, config, log } = options;
    this.storage = storage;
    const writeDir = path.join(config.tempDir, 'datasets');
    // SQL may touch only our own files: snapshots (local storage), the cache, temporaries.
    const allowed = [config.cacheDir, writeDir, ...(storage.localPath ? [storage.localPath('datasets')] : [])];
    this.pool =
      options.pool ??
      new DuckDBPool({
        memoryLimit: config.duckdbMemoryLimit,
        threads: config.duckdbThreads,
        tempDirectory: path.join(config.tempDir, 'duckdb'),
        allowedDirectories: allowed,
      });
    this.files = new ParquetFiles({ storage, cacheDir: config.cacheDir, maxBytes: config.cacheMaxBytes, log });
    this.reader = new DatasetReader(this.pool, this.files, { orderedCopyMinRows: options.orderedCopyMinRows, log });
    this.writer = new DatasetWriter(this.pool, this.files, storage, { tempDir: writeDir });
    this.exporter = new DatasetExporter(this.pool, this.files, { tempDir: writeDir });
    this.comparer = new DatasetComparer(this.pool, this.files);
  }

  write(request: WriteDataset): Promise<DatasetMetadata> {
    return this.writer.write(request);
  }

  describe(ref: DatasetRef): Promise<DatasetDescription> {
    return this.reader.describe(ref);
  }

  records(ref: DatasetRef, query: RecordsQuery): Promise<RecordsPage> {
    return this.reader.records(ref, query);
  }

  record(ref: DatasetRef, recordId: string): Promise<JsonRecord> {
    return this.reader.record(ref, recordId);
  }

  /** The whole dataset as a local file to stream; the caller must call `done()` once sent. `raw`: CSV cells as stored (csv-cells.ts). */
  export(ref: DatasetRef, format: ExportFormat, options: ExportOptions = {}): Promise<ExportedFile> {
    return this.exporter.export(ref, format, options);
  }

  /** What changed from `before` to `after`, record by record by `query.key`. Throws InvalidRecordsQuery. */
  compare(before: DatasetRef, after: DatasetRef, query: CompareQuery): Promise<DatasetComparison> {
    return this.comparer.compare(before, after, query);
  }

  // ---- deferred snapshots (recipe.ts) ----

  /** What a SQL step reads for this dataset: its snapshot, or (deferred) its recipe inlined. */
  relationOf(meta: Pick<DatasetMetadata, 'id' | 'storageKey' | 'recipe'>): Relation {
    return meta.recipe ? recipeRelation(meta.recipe) : storedRelation(meta);
  }

  /**
   * Runs `work` with the relation's files on local disk (held until it ends) and its SQL pointing
   * at them: a deferred input is read through its recipe, in the same query, never written.
   */
  async withRelation<T>(relation: Relation, work: (sql: string, params: RecipeParam[]) => Promise<T>): Promise<T> {
    return this.withLeaves(relation.leaves, (paths) => work(resolveLeaves(relation.sql, paths), relation.params));
  }

  private async withLeaves<T>(leaves: readonly RecipeLeaf[], work: (paths: Map<string, string>) => Promise<T>): Promise<T> {
    const leases: LocalFile[] = [];
    try {
      const paths = new Map<string, string>();
      for (const leaf of leaves) {
        const lease = await this.files.open(leaf.storageKey);
        leases.push(lease);
        paths.set(leaf.marker, lease.path);
      }
      return await work(paths);
    } finally {
      for (const lease of leases) lease.release();
    }
  }

  /**
   * The recipe of a dataset `datasetId` holding the rows of `select` over `inputs` (own bound values
   * `params`), with `_id`s as the writer would give them. Nothing is read but the files' schemas
   * (DuckDB prepares the query). Null when the snapshot could differ from the recipe (a column type
   * Parquet changes): the caller writes it instead.
   */
  async recipeFor(request: {
    datasetId: string;
    inputs: readonly Relation[];
    select: (tables: readonly string[]) => string;
    params?: readonly RecipeParam[];
  }): Promise<DatasetRecipe | null> {
    const own = request.params ?? [];
    const relation = compose(request.inputs, request.select, own);
    const bareIn = bareInputs(request.inputs);
    const bare = bareIn ? compose(bareIn, request.select, own) : null;
    return this.withLeaves(relation.leaves, (paths) =>
      this.pool.use(async (connection) => {
        // The snapshot's columns follow from the relation's, `_id` first as text (withRecordIds).
        const found = await describeQuery(connection, `SELECT * FROM (${resolveLeaves(relation.sql, paths)})`, relation.params);
        const seen = new Set<string>();
        for (const { name } of found) {
          if (seen.has(name)) throw new InvalidDatasetInput('server.datasets.duplicateColumn', { column: name });
          seen.add(name);
        }
        const columns = [{ name: RECORD_ID, type: 'VARCHAR' }, ...found.filter((c) => c.name !== RECORD_ID)];
        if (!columns.every((c) => isStableType(c.type))) return null;
        const hasIds = seen.has(RECORD_ID);
        // Over the inputs without their ids: binding fails if the step reads `_id`; the same columns
        // mean it never did (its ids are its own), the same but `_id` that it only passed them on.
        const bareFound = bare ? await describeQuery(connection, `SELECT * FROM (${resolveLeaves(bare.sql, paths)})`, bare.params).catch(() => null) : null;
        const same = (a: DatasetColumn[], b: DatasetColumn[]) => a.length === b.length && a.every((c, i) => c.name === b[i].name && c.type === b[i].type);
        if (bare && bareFound && same(bareFound, found)) {
          return {
            version: 1 as const,
            sql: withRecordIds(`(${bare.sql})`, [...seen], request.datasetId),
            params: bare.params,
            leaves: relation.leaves,
            columns,
            ...(hasIds ? {} : { bare: { sql: bare.sql, params: bare.params } }),
          };
        }
        const sql = withRecordIds(`(${relation.sql})`, [...seen], request.datasetId);
        const passedOn =
          bare &&
          bareFound &&
          hasIds &&
          same(
            bareFound,
            found.filter((c) => c.name !== RECORD_ID),
          );
        const bareOut = passedOn ? { sql: bare.sql, params: bare.params } : hasIds ? undefined : { sql: relation.sql, params: relation.params };
        return { version: 1 as const, sql, params: relation.params, leaves: relation.leaves, columns, ...(bareOut ? { bare: bareOut } : {}) };
      }),
    );
  }

  /**
   * How many rows a deferred dataset's snapshot will hold, counted by DuckDB over its recipe (its
   * bare form when it has one: no record ids to number) without writing anything.
   */
  async countRecipe(recipe: DatasetRecipe): Promise<number> {
    // A recipe's text is unique to its dataset (its leaves' markers are UUIDs) and never changes.
    const known = this.recipeCounts.get(recipe.sql);
    if (known !== undefined) return known;
    const relation = recipeRelation(recipe);
    const counted = relation.bare ? { sql: relation.bare.sql, params: relation.bare.params, leaves: relation.leaves } : relation;
    const count = await this.withRelation(counted, (sql, params) =>
      this.pool.use(async (connection) => {
        const [[rows]] = (await (await runBound(connection, `SELECT count(*) FROM ${sql}`, params)).getRows()) as [[bigint]];
        return Number(rows);
      }),
    );
    if (this.recipeCounts.size >= RECIPE_COUNTS_KEPT) this.recipeCounts.clear();
    this.recipeCounts.set(recipe.sql, count);
    return count;
  }

  /**
   * One page of a deferred dataset's records straight from its recipe, in file order with every
   * column (`_id` first), and how many there are: the first pages of a fresh import or SQL step
   * answer at once, without waiting for its snapshot to be written (which the caller starts in
   * the background). A sort, a filter or a choice of columns reads the snapshot instead.
   */
  async recipePage(recipe: DatasetRecipe, page: number, pageSize: number): Promise<RecordsPage> {
    const relation = recipeRelation(recipe);
    const [items, total] = await Promise.all([
      this.withRelation(relation, (sql, params) =>
        this.pool.use(async (connection) => {
          const n = params.length;
          const result = await runBound(connection, `SELECT * FROM ${sql} LIMIT $${n + 1} OFFSET $${n + 2}`, [...params, pageSize, (page - 1) * pageSize]);
          return jsonRecords(result.columnNames(), result.columnTypes(), await result.getRows());
        }),
      ),
      this.countRecipe(recipe),
    ]);
    return { items, total, page, pageSize };
  }

  /**
   * A column's most frequent values (at most `limit`: the most frequent first, ties in value order,
   * empty last) with their counts, and how many distinct values it has: what a pivot offers to
   * spread, read by DuckDB over the snapshot or, deferred, its recipe. The caller checks the column.
   */
  async topValues(meta: Pick<DatasetMetadata, 'id' | 'storageKey' | 'recipe'>, column: string, limit: number): Promise<ColumnValues> {
    const c = quoteIdent(column);
    return this.withRelation(this.relationOf(meta), (sql, params) =>
      this.pool.use(async (connection) => {
        const n = params.length;
        const result = await runBound(
          connection,
          `SELECT ${c} AS value, count(*) AS count FROM ${sql} GROUP BY 1 ORDER BY 2 DESC, 1 NULLS LAST LIMIT $${n + 1}`,
          [...params, limit],
        );
        // Empty counts as one value, as it is one of the groups above.
        const distinct = await runBound(connection, `SELECT count(DISTINCT ${c}) + max(CASE WHEN ${c} IS NULL THEN 1 ELSE 0 END) FROM ${sql}`, params);
        const values = jsonRecords(result.columnNames(), result.columnTypes(), await result.getRows()).map((row) => ({
          value: row.value,
          count: Number(row.count),
        }));
        const [[total]] = (await distinct.getRows()) as [[bigint | number | null]];
        return { values, distinct: Number(total ?? 0) };
      }),
    );
  }

  /**
   * Writes a relation as a new snapshot (DatasetWriter.write: ids kept, checked unless `idsUnique`,
   * new ones numbered by row). A deferred dataset's recipe is materialized this way, with its own id.
   */
  async writeRelation(request: Omit<WriteDataset, 'source' | 'inputs'> & { relation: Relation; parentIds?: string[] }): Promise<DatasetMetadata> {
    const { relation, parentIds, ...rest } = request;
    return this.withRelation(relation, async (sql, params) => {
      const meta = await this.writer.write({ ...rest, source: { sql: () => `SELECT * FROM ${sql.startsWith('(') ? sql : `(${sql})`}`, params } });
      return { ...meta, parentIds: parentIds ?? [] };
    });
  }

  /** On shutdown: an ordered copy being built is abandoned (it is only a cache), then DuckDB closes. */
  async close(): Promise<void> {
    // Snapshots being written in the background finish first: DuckDB is about to close.
    await this.files.settled();
    this.reader.stopCopies();
    await this.pool.close();
    await this.reader.idle();
  }
}

/** The columns a query gives (prepared, not run; run with no rows when a parameter's type hides them). */
async function describeQuery(connection: DuckDBConnection, sql: string, params: readonly RecipeParam[]): Promise<DatasetColumn[]> {
  const prepared = await connection.prepare(sql);
  try {
    const undecided = prepared.columnCount === 1 && prepared.columnName(0) === 'unknown';
    if (!params.length || !undecided)
      return Array.from({ length: prepared.columnCount }, (_, i) => ({ name: prepared.columnName(i), type: typeName(prepared.columnType(i)) }));
  } finally {
    prepared.destroySync();
  }
  const result = await runBound(connection, `SELECT * FROM (${sql}) LIMIT 0`, params);
  const names = result.columnNames();
  const types = result.columnTypes();
  return names.map((name, i) => ({ name, type: typeName(types[i]) }));
}
