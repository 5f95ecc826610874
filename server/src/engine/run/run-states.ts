/**
 * States of workflow runs and step runs (issue 9). A run is `running` until every step run is
 * final; it ends `failed` when one failed, `cancelled` when cancelled, else `succeeded`.
 *
 *   step run:  queued ─► running ─► succeeded | failed | cancelled
 *                 │          └──► paused ─► queued (resume)
 *                 ├──► cached   (an equal step ran before: same type, params, variables, inputs)
 *                 └──► skipped  (a step before it failed or was cancelled)
 *   failed ─► queued (retry; the steps after it that were skipped are queued again)
 *
 * A paused, failed or cancelled one also says why (`state_reason`, state-reasons.ts).
 *
 * A retry continues from what is done: a per-record step's finished batches stay, so no record
 * whose outside call finished is called again. `retry_from_scratch` forgets them and starts over.
 */
export const RUN_STATES = ['queued', 'running', 'paused', 'succeeded', 'failed', 'cancelled', 'skipped', 'cached'] as const;
export type RunState = (typeof RUN_STATES)[number];

/** A step run in one of these will not change again unless someone retries it. */
export const FINAL_STATES: readonly RunState[] = ['succeeded', 'failed', 'cancelled', 'skipped', 'cached'];
/** The step run's output can be read by the steps after it. */
export const DONE_STATES: readonly RunState[] = ['succeeded', 'cached'];
/** Work not started or not finished. */
export const OPEN_STATES: readonly RunState[] = ['queued', 'running', 'paused'];

/** Who or what started a run (migration 020): its owner through the API, or an agent acting for them. */
export { RUN_STARTERS, type RunStarter } from '../../db/tables/runs';

export const RUN_MODES = ['all', 'up_to', 'from', 'only'] as const;
export type RunMode = (typeof RUN_MODES)[number];

export const RUN_ACTIONS = ['pause', 'resume', 'cancel', 'retry', 'retry_from_scratch'] as const;
export type RunAction = (typeof RUN_ACTIONS)[number];

export const STEP_RUN_ACTIONS = ['pause', 'resume', 'cancel', 'retry', 'retry_failed_records', 'retry_from_scratch'] as const;
export type StepRunAction = (typeof STEP_RUN_ACTIONS)[number];

export const isFinal = (state: string) => (FINAL_STATES as readonly string[]).includes(state);
export const isDone = (state: string) => (DONE_STATES as readonly string[]).includes(state);
