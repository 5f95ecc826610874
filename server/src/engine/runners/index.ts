export { StepParamsInvalid } from './errors';
export { runSqlStep, StepRunFailed, type RunSqlStep } from './execute';
export { getRunner, pendingRunners, runners } from './registry';
export type { Column, OtherRunner, RunnerKind, SqlInput, SqlParam, SqlQuery, SqlRunner, StepRunner, Vars } from './types';
