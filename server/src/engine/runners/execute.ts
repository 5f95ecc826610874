import { DomainError, ValidationFailed } from '../../lib/errors';
import type { MessageValues } from '../../i18n/messages';
import { compose, datasetKey, type DatasetMetadata, type Datasets } from '../datasets';
import type { ParamValues } from '../params';
import type { Column, SqlRunner, Vars } from './types';

export interface RunSqlStep {
  runner: SqlRunner;
  /** The step's input datasets, in the order of its inputs. */
  inputs: readonly DatasetMetadata[];
  params: ParamValues;
  vars?: Vars;
  ownerId: string;
  /** The output dataset's name. */
  name: string;
  stepRunId?: string | null;
  /** For a retry of a write that stored nothing (see WriteDataset). */
  datasetId?: string;
  /**
   * Register the output as deferred (datasets/recipe.ts) instead of writing it, when it can be:
   * the step keeps ids unique, `datasetId` is given and every column type survives Parquet.
   * The answer then has `recipe` set, `rowCount` and `bytes` 0.
   */
  defer?: boolean;
}

type SqlStepDatasets = Pick<Datasets, 'write'> & Partial<Pick<Datasets, 'relationOf' | 'recipeFor' | 'writeRelation'>>;

/**
 * Runs a SQL step: checks its params against the inputs' columns (StepParamsInvalid before any SQL
 * runs), then has DuckDB write the SELECT's rows as the output dataset. The table names are known
 * only inside the writer, so the SELECT is built twice: once here with stand-in names (to check
 * and to get the bound values, which do not depend on names), once there.
 */
export async function runSqlStep(datasets: SqlStepDatasets, request: RunSqlStep): Promise<DatasetMetadata> {
  const { runner, inputs, params, vars } = request;
  const columns: Column[][] = inputs.map((i) => i.columns);
  runner.outputColumns(columns, params, vars);
  const { params: bound } = runner.toSql(
    columns.map((c, i) => ({ table: `input${i}`, columns: c })),
    params,
    vars,
  );
  const select = (tables: readonly string[]) =>
    runner.toSql(
      tables.map((table, i) => ({ table, columns: columns[i] })),
      params,
      vars,
    ).sql;
  const deferredInput = inputs.some((i) => i.recipe);
  try {
    if ((request.defer || deferredInput) && datasets.relationOf && datasets.recipeFor && datasets.writeRelation) {
      const relations = inputs.map((i) => datasets.relationOf!(i));
      const parentIds = inputs.map((i) => i.id);
      if (request.defer && runner.keepsIdsUnique && request.datasetId) {
        const recipe = await datasets.recipeFor({ datasetId: request.datasetId, inputs: relations, select, params: bound });
        if (recipe) {
          return {
            id: request.datasetId,
            ownerId: request.ownerId,
            name: request.name,
            storageKey: datasetKey(request.ownerId, request.datasetId),
            columns: recipe.columns,
            rowCount: 0,
            bytes: 0,
            stepRunId: request.stepRunId ?? null,
            parentIds,
            createdAt: new Date().toISOString(),
            recipe,
          };
        }
      }
      // Written now, but over the inputs' relations: a deferred input is computed in the same query.
      if (deferredInput) {
        return await datasets.writeRelation({
          ownerId: request.ownerId,
          name: request.name,
          datasetId: request.datasetId,
          stepRunId: request.stepRunId,
          idsUnique: runner.keepsIdsUnique,
          relation: compose(relations, select, bound),
          parentIds,
        });
      }
    }
    return await datasets.write({
      ownerId: request.ownerId,
      name: request.name,
      datasetId: request.datasetId,
      stepRunId: request.stepRunId,
      inputs,
      idsUnique: runner.keepsIdsUnique,
      source: {
        sql: (tables) =>
          runner.toSql(
            tables.map((table, i) => ({ table, columns: columns[i] })),
            params,
            vars,
          ).sql,
        params: bound,
      },
    });
  } catch (err) {
    const failure = asStepFailure(err);
    if (failure instanceof StepRunFailed && runner.paramFailure) throw runner.paramFailure(String(failure.values.reason), params) ?? failure;
    throw failure;
  }
}

/**
 * DuckDB's own errors while the step runs ("Conversion Error: Could not convert string 'x' to
 * INT32", "Out of Range Error: …"): the data did not fit what the params ask of it, which only
 * running finds out. They become StepRunFailed, whose `reason` is DuckDB's first line (English: it
 * goes to the run's log); anything else (storage, our own errors) passes through unchanged.
 */
export class StepRunFailed extends DomainError {
  /**
   * `message`: a catalog key and its values when the failure has its own text for people (a sink's
   * webhook answering 500); `reason` then stays beside them, in English, for the run's log.
   */
  constructor(
    readonly reason: string,
    readonly cause: unknown,
    message?: { key: string; values?: MessageValues },
  ) {
    super('rejected', message?.key ?? 'server.steps.runFailed', { ...(message?.values ?? {}), reason });
    this.name = 'StepRunFailed';
  }
}

const DUCKDB_ERROR = /^(?:[A-Z][a-z]+ )+Error: /;

export function asStepFailure(err: unknown): unknown {
  // Not `instanceof Error`: the native binding's errors may come from another realm (Jest's, say).
  const message = (err as { message?: unknown } | null)?.message;
  if (err instanceof DomainError || err instanceof ValidationFailed || typeof message !== 'string' || !DUCKDB_ERROR.test(message)) return err;
  const [first] = message.split('\n');
  return new StepRunFailed(first.length > 500 ? `${first.slice(0, 500)}…` : first, err);
}
