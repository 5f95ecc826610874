import { randomUUID } from 'node:crypto';
import { RECORD_ID, type DatasetColumn } from './metadata';
import { quoteIdent, sqlString } from './sql';

/**
 * Deferred snapshots (docs/architecture.md, "Deferred snapshots"). A dataset may be registered
 * with a recipe instead of a Parquet file: the SELECT that gives exactly the rows (and `_id`s) its
 * snapshot would hold, over files that are stored and immutable (its ancestors' snapshots, or a
 * copy of a CSV the dataset owns). A SQL step over a deferred input inlines the input's recipe as
 * a subquery, so a chain of SQL steps becomes one DuckDB query when something finally reads it;
 * materializing (writing the Parquet snapshot) happens once, when something needs the file.
 */

export type RecipeParam = string | number | boolean | null;

/** One stored file a recipe reads: its marker (a string literal in `sql`) stands for the file's local path. */
export interface RecipeLeaf {
  marker: string;
  storageKey: string;
  /** The dataset that owns the file (its snapshot, or its CSV copy): retention keeps it while the recipe may run. */
  datasetId: string;
}

export interface DatasetRecipe {
  version: 1;
  /**
   * The snapshot's SELECT, `_id` first exactly as the writer would write it. Every user value is a
   * `$n` parameter (`params`), never text in here; each leaf appears as the quoted marker
   * `'<marker>'` where a file path goes.
   */
  sql: string;
  params: RecipeParam[];
  leaves: RecipeLeaf[];
  /** The columns the snapshot will have, as DuckDB types them (only Parquet-stable types: see STABLE_TYPES). */
  columns: DatasetColumn[];
  /**
   * The same rows in the same order without `_id`, when that is cheaper to compute (see Relation.bare).
   * Over the same leaves; its own bound values.
   */
  bare?: { sql: string; params: RecipeParam[] };
}

/** A relation a new SELECT can read: a table expression, its bound values and the files under it. */
export interface Relation {
  sql: string;
  params: RecipeParam[];
  leaves: RecipeLeaf[];
  /**
   * The same rows, same order, without the `_id` column. A CSV import's ids number the file's rows
   * with `row_number() OVER ()`, which DuckDB computes even when nothing reads `_id` (and which
   * serialises the scan): a step that never reads its input's ids (an aggregate making ids from
   * its key) reads this instead, and a step passing ids through (filter, formula, sort) has one too.
   */
  bare?: { sql: string; params: RecipeParam[] };
}

/** A new marker: a quoted literal no column name or value can contain by chance. */
export const newMarker = () => `stepwise-leaf-${randomUUID()}`;

/** The relation reading one stored Parquet snapshot. */
export function storedRelation(dataset: { id: string; storageKey: string }): Relation {
  const marker = newMarker();
  return { sql: `read_parquet(${sqlString(marker)})`, params: [], leaves: [{ marker, storageKey: dataset.storageKey, datasetId: dataset.id }] };
}

/** The relation of a deferred dataset: its recipe as a subquery. */
export function recipeRelation(recipe: DatasetRecipe): Relation {
  return {
    sql: `(${recipe.sql})`,
    params: recipe.params,
    leaves: recipe.leaves,
    ...(recipe.bare ? { bare: { sql: `(${recipe.bare.sql})`, params: recipe.bare.params } } : {}),
  };
}

/** The inputs' bare relations (see Relation.bare), when every input has one. */
export function bareInputs(inputs: readonly Relation[]): Relation[] | null {
  if (!inputs.length || !inputs.every((i) => i.bare)) return null;
  return inputs.map((i) => ({ sql: i.bare!.sql, params: i.bare!.params, leaves: i.leaves }));
}

/**
 * Shifts every `$n` outside quoted text and identifiers by `offset`, so relations with their own
 * `$1…` can sit in one statement. The SQL here is ours (runners' SELECTs: values are parameters,
 * names are double-quoted, paths single-quoted), so quotes are the only context to skip.
 */
export function shiftParams(sql: string, offset: number): string {
  if (!offset) return sql;
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      let j = i + 1;
      for (;;) {
        const k = sql.indexOf(c, j);
        if (k < 0) {
          j = sql.length;
          break;
        }
        if (sql[k + 1] === c) {
          j = k + 2;
          continue;
        }
        j = k + 1;
        break;
      }
      out += sql.slice(i, j);
      i = j;
    } else if (c === '$' && /[0-9]/.test(sql[i + 1] ?? '')) {
      let j = i + 1;
      while (j < sql.length && /[0-9]/.test(sql[j])) j++;
      out += `$${Number(sql.slice(i + 1, j)) + offset}`;
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * One SELECT over input relations: `select` is given a stand-in name per input (its own `$n` are
 * 1…own.length); the stand-ins are replaced by the inputs' SQL with their parameters shifted after
 * the SELECT's own. Answers the combined SQL, parameters and leaves.
 */
export function compose(inputs: readonly Relation[], select: (tables: readonly string[]) => string, own: readonly RecipeParam[]): Relation {
  const standIns = inputs.map(() => `stepwise_input_${randomUUID().replaceAll('-', '')}`);
  let sql = select(standIns);
  const params: RecipeParam[] = [...own];
  const leaves: RecipeLeaf[] = [];
  inputs.forEach((input, i) => {
    const shifted = shiftParams(input.sql, params.length);
    params.push(...input.params);
    // A stand-in may appear more than once (a union of an input with itself): same relation each time.
    sql = sql.split(standIns[i]).join(input.sql.startsWith('(') || input.sql.startsWith('read_') ? shifted : `(${shifted})`);
    for (const leaf of input.leaves) if (!leaves.some((l) => l.marker === leaf.marker)) leaves.push(leaf);
  });
  return { sql, params, leaves };
}

/**
 * The SELECT a snapshot of `relation` holds, `_id` first as DatasetWriter makes it: a kept `_id`
 * as text, or new ids from the dataset id's first 24 characters and the row position.
 */
export function withRecordIds(relationSql: string, columnNames: readonly string[], datasetId: string): string {
  const id_ = quoteIdent(RECORD_ID);
  if (columnNames.includes(RECORD_ID)) return `SELECT CAST(${id_} AS VARCHAR) AS ${id_}, * EXCLUDE (${id_}) FROM ${relationSql}`;
  return `SELECT printf('%s%012x', ${sqlString(datasetId.slice(0, 24))}, row_number() OVER () - 1) AS ${id_}, * FROM ${relationSql}`;
}

/** The SQL with each leaf's marker replaced by its local file's path. */
export function resolveLeaves(sql: string, paths: ReadonlyMap<string, string>): string {
  let out = sql;
  for (const [marker, file] of paths) out = out.split(sqlString(marker)).join(sqlString(file));
  return out;
}

/**
 * Types that come back the same from the Parquet writer: a deferred dataset's columns must be what
 * its snapshot will say. Others (HUGEINT becomes DOUBLE, lists, structs, intervals…) make the step
 * write its snapshot at once instead.
 */
const STABLE_TYPES = new Set([
  'VARCHAR',
  'BOOLEAN',
  'TINYINT',
  'SMALLINT',
  'INTEGER',
  'BIGINT',
  'FLOAT',
  'DOUBLE',
  'DATE',
  'TIMESTAMP',
  'TIMESTAMP WITH TIME ZONE',
  'TIME',
]);

export const isStableType = (type: string) => STABLE_TYPES.has(type) || /^DECIMAL\(\d+,\d+\)$/.test(type);
