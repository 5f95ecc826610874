import type { IconType } from 'react-icons';
import { LuBan, LuCircleCheck, LuCircleDashed, LuCircleX, LuDatabaseZap, LuLoaderCircle, LuPause, LuSkipForward } from 'react-icons/lu';
import type { RunState, StateReason, StepRun } from './runsApi';

// How a run or step run state looks everywhere (node badges, the run panel): one colour palette
// (Chakra's "subtle" badge pairs meet WCAG AA in both themes) and one icon per state.

export const RUN_STATE_LOOK: Record<RunState, { palette: string; icon: IconType }> = {
  queued: { palette: 'gray', icon: LuCircleDashed },
  running: { palette: 'blue', icon: LuLoaderCircle },
  paused: { palette: 'yellow', icon: LuPause },
  succeeded: { palette: 'green', icon: LuCircleCheck },
  failed: { palette: 'red', icon: LuCircleX },
  cancelled: { palette: 'orange', icon: LuBan },
  skipped: { palette: 'gray', icon: LuSkipForward },
  cached: { palette: 'teal', icon: LuDatabaseZap },
};

/** The states whose reasons have words of their own ("Paused: out of credits", "Cancelled by you"). */
const REASON_LABELS: Partial<Record<RunState, readonly StateReason['code'][]>> = {
  paused: ['by_user', 'credits'],
  cancelled: ['by_user'],
  failed: ['worker_lost', 'limit', 'error'],
};

/** The message id naming a state with its reason ("run.reason.paused.credits"), or the state alone. */
export function stateLabelId(state: RunState, reason?: StateReason | null): string {
  return reason && REASON_LABELS[state]?.includes(reason.code) ? `run.reason.${state}.${reason.code}` : `run.state.${state}`;
}

const OPEN: readonly string[] = ['queued', 'running', 'paused'];

/** Work not started or not finished: a run in one of these blocks starting another. */
export const isOpenState = (state: string | undefined) => !!state && OPEN.includes(state);

/** A step run that finished its work: it ran (succeeded), or a cached output stood in for it. */
export const isDoneState = (state: RunState) => state === 'succeeded' || state === 'cached';

/** A finished step run whose output's count is not known yet (a deferred output the server is still counting). */
export const isUncounted = (stepRun: Pick<StepRun, 'state' | 'records_total' | 'output_dataset_id'>) =>
  isDoneState(stepRun.state) && stepRun.records_total === null && !!stepRun.output_dataset_id;
