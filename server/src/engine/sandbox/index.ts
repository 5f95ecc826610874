export { CodeSandbox, defaultSandboxLimits } from './code-sandbox';
export type { BatchResult, CodeMode, JsonRecord, JsonValue, LogLine, RunBatchOptions, SandboxLimits } from './code-sandbox';
export { SandboxError } from './errors';
export type { SandboxErrorCode, SandboxErrorValues } from './errors';
export { SandboxPool } from './worker-pool';
export type { PoolBatch, SandboxPoolOptions } from './worker-pool';
