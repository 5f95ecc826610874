import type { RunMode } from './run-states';

export interface PlanStep {
  id: string;
  inputs: string[];
}

export interface RunPlan {
  /** The steps this run executes, each after the steps it reads from. */
  steps: string[];
  /** Steps outside the run whose last output the run reads (modes `from` and `only`). */
  external: string[];
}

/**
 * Which steps a run executes, in dependency order (pure).
 * - `all`: every step of the workflow;
 * - `up_to`: the target and every step it reads from, directly or not;
 * - `from`: the target and every step that reads from it, directly or not;
 * - `only`: the target alone.
 * Ties keep the workflow's own step order, so the same workflow always plans the same way.
 * The caller refuses a cyclic graph before (the editor never stores one).
 */
export function planRun(all: readonly PlanStep[], targetId: string, mode: RunMode): RunPlan {
  const byId = new Map(all.map((s) => [s.id, s]));
  const readers = new Map<string, string[]>();
  for (const step of all) for (const input of step.inputs) readers.set(input, [...(readers.get(input) ?? []), step.id]);

  const reach = (start: string, next: (id: string) => readonly string[]) => {
    const seen = new Set<string>([start]);
    const stack = [start];
    while (stack.length) {
      for (const n of next(stack.pop()!)) {
        if (byId.has(n) && !seen.has(n)) {
          seen.add(n);
          stack.push(n);
        }
      }
    }
    return seen;
  };
  const chosen =
    mode === 'all'
      ? new Set(all.map((s) => s.id))
      : mode === 'up_to'
        ? reach(targetId, (id) => byId.get(id)?.inputs ?? [])
        : mode === 'from'
          ? reach(targetId, (id) => readers.get(id) ?? [])
          : new Set([targetId]);

  const order = all.map((s) => s.id).filter((id) => chosen.has(id));
  const position = new Map(order.map((id, i) => [id, i]));
  const waiting = new Map(order.map((id) => [id, byId.get(id)!.inputs.filter((i) => chosen.has(i)).length]));
  const steps: string[] = [];
  const ready = order.filter((id) => waiting.get(id) === 0);
  while (ready.length) {
    ready.sort((a, b) => position.get(a)! - position.get(b)!);
    const id = ready.shift()!;
    steps.push(id);
    for (const reader of readers.get(id) ?? []) {
      if (!chosen.has(reader)) continue;
      const left = waiting.get(reader)! - 1;
      waiting.set(reader, left);
      if (left === 0) ready.push(reader);
    }
  }
  const external = [...new Set(steps.flatMap((id) => byId.get(id)!.inputs.filter((i) => !chosen.has(i))))];
  return { steps, external };
}
