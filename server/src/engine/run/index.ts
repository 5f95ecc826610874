export { insufficientCreditsModal, type RunEstimate } from './estimates';
export type { ChargedStep, CreditsPort, ReportedUsage, RunEngineDeps } from './ports';
export { MAX_SAMPLE_SIZE, RunEngine } from './run-engine';
export { STEP_RUN_JOB, type RunSnapshot, type StepRunJob } from './scheduler';
export type { StoredError } from './step-executor';
