import { useEffect, useRef } from 'react';
import type { StepOut } from '../../../server/src/modules/steps/steps.schemas';
import { useGetVariableFieldsQuery } from '../variables/variablesApi';
import { useStart, type StepNotReady } from './RunButtons';
import { PREVIEW_SAMPLE_SIZE, type WorkflowRun } from './runsApi';

interface AutoPreviewArgs {
  workflowId: string;
  /** The workflow's version: after a change, an input is previewed again if it still has no data. */
  version: number;
  /** The step opened in the inspector, if any. */
  step: StepOut | undefined;
  steps: readonly StepOut[];
  notReady: readonly StepNotReady[];
  /** A run is open: no other may start. */
  busy: boolean;
  onStarted: (run: WorkflowRun) => void;
}

/** The step and every step it reads from, at any depth. */
function upstreamOf(id: string, steps: readonly StepOut[]): Set<string> {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const seen = new Set<string>();
  const visit = (stepId: string) => {
    if (seen.has(stepId)) return;
    seen.add(stepId);
    for (const input of byId.get(stepId)?.inputs ?? []) visit(input);
  };
  visit(id);
  return seen;
}

/**
 * Opening a step whose input never ran previews that input on a sample (PREVIEW_SAMPLE_SIZE
 * records), as n8n fetches a node's input when it is opened: its data panel and its column pickers
 * then show the input's columns and rows without a click. Only where the server says a preview may
 * run unasked (variable-fields' `preview_step_ids`: free steps that call nothing outside), when no
 * run is open and every step up to the input has its settings; once per input and workflow version.
 */
export function useAutoPreview({ workflowId, version, step, steps, notReady, busy, onStarted }: AutoPreviewArgs): void {
  const { data: references } = useGetVariableFieldsQuery({ workflowId, stepId: step?.id ?? '' }, { skip: !step });
  const { start } = useStart({ workflowId, onStarted });
  const tried = useRef(new Set<string>());
  const target = references?.preview_step_ids.find((id) => steps.some((s) => s.id === id));
  useEffect(() => {
    if (!target || busy) return;
    const key = `${target}@${version}`;
    if (tried.current.has(key)) return;
    const upstream = upstreamOf(target, steps);
    if (notReady.some((n) => upstream.has(n.step.id))) return;
    tried.current.add(key);
    void start(target, 'up_to', PREVIEW_SAMPLE_SIZE);
  }, [busy, notReady, start, steps, target, version]);
}
