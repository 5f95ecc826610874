import type { DatasetMetadata, Datasets } from '../datasets';
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
}

/**
 * Runs a SQL step: checks its params against the inputs' columns (StepParamsInvalid before any SQL
 * runs), then has DuckDB write the SELECT's rows as the output dataset. The table names are known
 * only inside the writer, so the SELECT is built twice: once here with stand-in names (to check
 * and to get the bound values, which do not depend on names), once there.
 */
export async function runSqlStep(datasets: Pick<Datasets, 'write'>, request: RunSqlStep): Promise<DatasetMetadata> {
  const { runner, inputs, params, vars } = request;
  const columns: Column[][] = inputs.map((i) => i.columns);
  runner.outputColumns(columns, params, vars);
  const { params: bound } = runner.toSql(
    columns.map((c, i) => ({ table: `input${i}`, columns: c })),
    params,
    vars,
  );
  return datasets.write({
    ownerId: request.ownerId,
    name: request.name,
    datasetId: request.datasetId,
    stepRunId: request.stepRunId,
    inputs,
    source: { sql: (tables) => runner.toSql(tables.map((table, i) => ({ table, columns: columns[i] })), params, vars).sql, params: bound },
  });
}
