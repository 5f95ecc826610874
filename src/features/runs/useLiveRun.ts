import { useEffect, useMemo, useRef, useState } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { isOpenState, isUncounted } from './runLook';
import { endedRunTags, runsApi, useGetRunQuery, useListRunsQuery, type StepRun, type WorkflowRun } from './runsApi';
import { readEventStream, type ServerSentEvent } from './sse';

/** Refetches caused by a burst of events are merged into one within this time. */
const REFETCH_DELAY_MS = 150;
/** How often the run is read when its event stream cannot be. */
export const POLL_INTERVAL_MS = 1000;
/** An ended run read before its deferred outputs were counted is read again this much later, at most COUNT_RETRIES times. */
export const COUNT_RETRY_MS = 3000;
const COUNT_RETRIES = 5;

interface RunEventData {
  type?: string;
  step_run_id?: string | null;
  done?: number;
  total?: number | null;
}

const percentOf = (done: number, total: number | null) => (total && total > 0 ? Math.min(100, (done / total) * 100) : null);

/**
 * A run kept current while it is open: its server-sent events patch the cached run (progress) or
 * refetch it (state changes); if the stream cannot be read, the run is polled every second.
 */
export function useLiveRun(runId: string | null): { run: WorkflowRun | undefined; polling: boolean } {
  const dispatch = useAppDispatch();
  const [pollingFor, setPollingFor] = useState<string | null>(null);
  const polling = !!runId && pollingFor === runId;
  const { data: run, refetch } = useGetRunQuery(runId ?? '', { skip: !runId, pollingInterval: polling ? POLL_INTERVAL_MS : 0, skipPollingIfUnfocused: false });
  const shown = run && run.id === runId ? run : undefined;
  const open = isOpenState(shown?.state);
  const openRef = useRef(open);
  openRef.current = open;
  const refetchRef = useRef(refetch);
  refetchRef.current = refetch;

  // A run seen ending (by its events or by polling): what its end makes stale is read again.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open && shown) dispatch(runsApi.util.invalidateTags(endedRunTags(shown.workflow_id)));
    wasOpen.current = open;
  }, [dispatch, open, shown]);

  // An ended run whose deferred outputs were still being counted when it was read (the server
  // waits 2 s for them, then keeps counting): read it again a few times, until they are known.
  const uncounted = !!shown && !open && shown.step_runs.some(isUncounted);
  const countRetries = useRef(new Map<string, number>());
  useEffect(() => {
    if (!uncounted || !runId) return;
    const tries = countRetries.current.get(runId) ?? 0;
    if (tries >= COUNT_RETRIES) return;
    const timer = setTimeout(() => {
      countRetries.current.set(runId, tries + 1);
      void refetchRef.current();
    }, COUNT_RETRY_MS);
    return () => clearTimeout(timer);
  }, [runId, shown, uncounted]);

  useEffect(() => {
    if (!runId || !open || polling) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refetchSoon = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        if (!controller.signal.aborted) void refetchRef.current();
      }, REFETCH_DELAY_MS);
    };
    const onEvent = (event: ServerSentEvent) => {
      let data: RunEventData = {};
      try {
        data = JSON.parse(event.data) as RunEventData;
      } catch {
        // An unreadable event still says something changed.
      }
      if (event.type === 'step_progress' && data.step_run_id && typeof data.done === 'number') {
        const { step_run_id: stepRunId, done } = data;
        dispatch(
          runsApi.util.updateQueryData('getRun', runId, (draft) => {
            const stepRun = draft.step_runs.find((s) => s.id === stepRunId);
            if (!stepRun) return;
            stepRun.records_done = done;
            if (data.total !== undefined) stepRun.records_total = data.total;
            stepRun.percent = percentOf(done, stepRun.records_total);
            if (stepRun.state === 'queued') stepRun.state = 'running';
          }),
        );
        return;
      }
      refetchSoon();
      // A finished step wrote a dataset: lists of datasets elsewhere are out of date.
      if (event.type === 'step_succeeded') dispatch(runsApi.util.invalidateTags(['Dataset']));
    };
    void readEventStream(`/workflow-runs/${runId}/events?after=0`, controller.signal, {
      onEvent,
      onEnd: refetchSoon,
      onFail: () => setPollingFor(runId),
      shouldReconnect: () => openRef.current,
    });
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [dispatch, open, polling, runId]);

  return { run: shown, polling };
}

/**
 * The run the editor shows (the one picked in the history, else the newest), its step runs by step,
 * and whether a run of this workflow is still open (then no other can be started).
 */
export function useEditorRun(workflowId: string, initialRunId: string | null = null) {
  // A link may name the run to show (the billing page's usage rows: `?run=<id>`).
  const [picked, setPicked] = useState<string | null>(initialRunId);
  const { data: history } = useListRunsQuery({ workflowId, page: 1 });
  const runId = picked ?? history?.items[0]?.id ?? null;
  const { run } = useLiveRun(runId);
  const byStep = useMemo(() => new Map<string, StepRun>((run?.step_runs ?? []).map((s) => [s.step_id, s])), [run]);
  const others = (history?.items ?? []).filter((r) => r.id !== run?.id);
  const busy = isOpenState(run?.state) || others.some((r) => isOpenState(r.state));
  // A run waiting for credits: the credit chip stays (with its top-up) though no run can start.
  const pausedForCredits = [run, ...others].some((r) => r?.state === 'paused' && r.state_reason?.code === 'credits');
  return { workflowId, runId, run, byStep, busy, pausedForCredits, history, pick: setPicked };
}

export type EditorRun = ReturnType<typeof useEditorRun>;
