export { StepParamsInvalid } from './errors';
export { runSqlStep, StepRunFailed, type RunSqlStep } from './execute';
export { getRunner, pendingRunners, runners } from './registry';
export type {
  AiAccess,
  AnswerCache,
  AppendedColumn,
  CachedAnswer,
  BatchOutput,
  Column,
  FolderEntry,
  LocalUserFile,
  PerRecordRunner,
  RunContext,
  RunnerKind,
  SavedFile,
  SinkResult,
  SinkRunner,
  SourceRunner,
  SqlInput,
  SqlParam,
  SqlQuery,
  SqlRunner,
  StepRunner,
  UserFiles,
  Vars,
} from './types';
