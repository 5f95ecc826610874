import type { Edge, Node } from '@xyflow/react';
import type { StepInfoOut } from '../../../../server/src/modules/step-infos/step-infos.schemas';
import type { StepOut } from '../../../../server/src/modules/steps/steps.schemas';
import type { StepRun } from '../../runs/runsApi';
import { missingRequired } from '../../steps/paramValues';

// The canvas is derived from the server's workflow (kept in RTK Query), never stored twice. Node
// objects are reused while their step is unchanged, so a change to one step re-renders one node,
// not two hundred.

export interface StepNodeData extends Record<string, unknown> {
  name: string;
  typeName: string;
  category: string | undefined;
  /** Labels of the required params still empty: the node shows it needs settings, and which. */
  missing: string[];
  acceptsInputs: boolean;
  /** Its type needs at least one input and nothing is connected to it: it has nothing to read. */
  needsInput: boolean;
  /** Settings were typed and not saved yet (a draft, steps/stepDrafts.ts). */
  unsaved: boolean;
  /** The step's run in the run shown (the newest, or one picked in the history), if it took part. */
  run?: StepRun;
}

export type StepFlowNode = Node<StepNodeData, 'step'>;

/** What a node needs to know of its step type: the catalogue's entry, or the gallery preview's. */
export type NodeTypeInfo = Pick<StepInfoOut, 'name' | 'category' | 'params' | 'inputs'>;

function missingParams(step: StepOut, info: NodeTypeInfo | undefined): string[] {
  return info ? missingRequired(info.params, step.param_inputs).map((p) => p.label) : [];
}

/**
 * The steps a run would be refused for, as the server checks them before it starts: saved settings
 * that leave a required param empty (the labels; the nodes marked "Needs settings"), or fewer
 * inputs connected than the step type needs.
 */
export function stepsNotReady(
  steps: StepOut[],
  catalogue: ReadonlyMap<string, NodeTypeInfo> | undefined,
): { step: StepOut; missing: string[]; inputsNeeded: number }[] {
  return steps.flatMap((step) => {
    const info = catalogue?.get(step.step_type);
    const missing = missingParams(step, info);
    const inputsNeeded = info && step.inputs.length < info.inputs.min ? info.inputs.min : 0;
    return missing.length || inputsNeeded ? [{ step, missing, inputsNeeded }] : [];
  });
}

export type NodeCache = Map<
  string,
  { step: StepOut; info: NodeTypeInfo | undefined; selected: boolean; unsaved: boolean; run: StepRun | undefined; node: StepFlowNode }
>;

const NO_RUNS: ReadonlyMap<string, StepRun> = new Map();

export function deriveNodes(
  steps: StepOut[],
  catalogue: ReadonlyMap<string, NodeTypeInfo> | undefined,
  selected: ReadonlySet<string>,
  cache: NodeCache,
  unsaved: ReadonlySet<string>,
  runs: ReadonlyMap<string, StepRun> = NO_RUNS,
): StepFlowNode[] {
  const seen = new Set<string>();
  const nodes = steps.map((step) => {
    seen.add(step.id);
    const info = catalogue?.get(step.step_type);
    const isSelected = selected.has(step.id);
    const isUnsaved = unsaved.has(step.id);
    const run = runs.get(step.id);
    const hit = cache.get(step.id);
    if (hit && hit.step === step && hit.info === info && hit.selected === isSelected && hit.unsaved === isUnsaved && hit.run === run) return hit.node;
    const node: StepFlowNode = {
      id: step.id,
      type: 'step',
      position: step.position,
      selected: isSelected,
      data: {
        name: step.name,
        typeName: info?.name ?? step.step_type,
        category: info?.category,
        missing: missingParams(step, info),
        acceptsInputs: info ? info.inputs.max !== 0 : true,
        needsInput: !!info && info.inputs.min >= 1 && step.inputs.length === 0,
        unsaved: isUnsaved,
        ...(run ? { run } : {}),
      },
    };
    cache.set(step.id, { step, info, selected: isSelected, unsaved: isUnsaved, run, node });
    return node;
  });
  for (const id of cache.keys()) if (!seen.has(id)) cache.delete(id);
  return nodes;
}

export const edgeId = (source: string, target: string) => `${source}->${target}`;

/**
 * The connections. After a run, each is labelled with the rows that flowed along it (the count of
 * its source step's output in the run shown, as `rowsLabel` words it), as the nodes show theirs.
 */
export function deriveEdges(steps: StepOut[], stepRuns: ReadonlyMap<string, StepRun> = NO_RUNS, rowsLabel?: (count: number) => string): Edge[] {
  return steps.flatMap((step) =>
    step.inputs.map((input, index) => {
      const from = stepRuns.get(input);
      const rows = from && (from.state === 'succeeded' || from.state === 'cached') ? from.records_total : null;
      return {
        id: edgeId(input, step.id),
        source: input,
        target: step.id,
        data: { index },
        ...(rows !== null && rowsLabel ? { label: rowsLabel(rows), labelBgPadding: [6, 2] as [number, number], labelBgBorderRadius: 4 } : {}),
      };
    }),
  );
}

/** The inputs a step gets when `source` is connected to it: a one-input step swaps its input. */
export function inputsAfterConnect(target: StepOut, source: string, info: StepInfoOut | undefined): string[] | null {
  if (target.inputs.includes(source) || source === target.id) return null;
  if (info?.inputs.max === 1) return [source];
  return [...target.inputs, source];
}
