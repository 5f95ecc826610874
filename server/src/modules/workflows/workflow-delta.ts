import { sameJson, type Change, type StepState, type VariableState, type WorkflowSnapshot } from './workflow-state';

/**
 * How the history stores states (pure: no database). A commit keeps either the whole state after it
 * (a checkpoint) or only what it changed (a delta): per changed step, variable or workflow field, the
 * value before and after. Any commit's state is its nearest checkpoint with the deltas after it
 * applied in order, so a one-param edit of a 200-step workflow stores a few hundred bytes instead of
 * the whole workflow, and the cost of an edit does not depend on how long the history is.
 */

type Fields<T> = Partial<Omit<T, 'id'>>;

/** create: `after` only (every field); delete: `before` only; update: both, the changed fields only. */
export interface EntityDelta<T> {
  id: string;
  before?: Fields<T>;
  after?: Fields<T>;
}

type WorkflowFields = Pick<WorkflowSnapshot, 'name' | 'description' | 'tags'>;

export interface SnapshotDelta {
  workflow?: { before: Partial<WorkflowFields>; after: Partial<WorkflowFields> };
  steps?: EntityDelta<StepState>[];
  variables?: EntityDelta<VariableState>[];
}

const withoutId = <T extends { id: string }>({ id: _id, ...fields }: T): Fields<T> => fields as Fields<T>;

function pick<T extends object>(item: T, keys: (keyof T)[]): Partial<T> {
  const picked: Partial<T> = {};
  for (const key of keys) picked[key] = item[key];
  return picked;
}

function entityDeltas<T extends { id: string }>(before: T[], after: T[]): EntityDelta<T>[] {
  const old = new Map(before.map((item) => [item.id, item]));
  const now = new Set(after.map((item) => item.id));
  const deltas: EntityDelta<T>[] = [];
  for (const item of after) {
    const previous = old.get(item.id);
    if (!previous) {
      deltas.push({ id: item.id, after: withoutId(item) });
      continue;
    }
    const changed = (Object.keys(item) as (keyof T)[]).filter((key) => key !== 'id' && !sameJson(previous[key], item[key]));
    if (changed.length) deltas.push({ id: item.id, before: pick(previous, changed) as Fields<T>, after: pick(item, changed) as Fields<T> });
  }
  for (const item of before) if (!now.has(item.id)) deltas.push({ id: item.id, before: withoutId(item) });
  return deltas;
}

/** What turns `before` into `after`; empty parts are left out, to keep the stored text small. */
export function deltaBetween(before: WorkflowSnapshot, after: WorkflowSnapshot): SnapshotDelta {
  const delta: SnapshotDelta = {};
  const fields = (['name', 'description', 'tags'] as const).filter((key) => !sameJson(before[key], after[key]));
  if (fields.length) delta.workflow = { before: pick(before, fields), after: pick(after, fields) };
  const steps = entityDeltas(before.steps, after.steps);
  if (steps.length) delta.steps = steps;
  const variables = entityDeltas(before.variables, after.variables);
  if (variables.length) delta.variables = variables;
  return delta;
}

function applyToEntities<T extends { id: string }>(items: T[], deltas: EntityDelta<T>[] | undefined, canonical: (item: T) => T): T[] {
  if (!deltas?.length) return items;
  const byId = new Map(deltas.map((d) => [d.id, d]));
  const result: T[] = [];
  for (const item of items) {
    const delta = byId.get(item.id);
    if (!delta) result.push(item);
    else if (delta.after) result.push(canonical({ ...item, ...delta.after }));
    // A delta with only `before` deleted the item.
  }
  // Created items go last, in the order the edit added them (as the edit's own state had them).
  for (const delta of deltas) if (!delta.before && delta.after) result.push(canonical({ id: delta.id, ...delta.after } as T));
  return result;
}

/** Positions in one key order, so a reconstructed state compares equal to the same state read from rows. */
const canonicalStep = (step: StepState): StepState => ({ ...step, position: { x: step.position.x, y: step.position.y } });

/** The state after a commit, from the state before it and the commit's delta. */
export function applyDelta(state: WorkflowSnapshot, delta: SnapshotDelta): WorkflowSnapshot {
  return {
    ...state,
    ...(delta.workflow?.after ?? {}),
    steps: applyToEntities(state.steps, delta.steps, canonicalStep),
    variables: applyToEntities(state.variables, delta.variables, (v) => v),
  };
}

/** Only steps moved: what a canvas drag writes. */
export const isMoveOnly = (changes: Change[]): boolean =>
  changes.length > 0 && changes.every((c) => c.entity === 'step' && c.op === 'update' && c.fields?.length === 1 && c.fields[0] === 'position');

/**
 * Two consecutive commits of updates as one: the values before the first and after the second.
 * Used to fold a drag's many position writes into one undoable commit; both must hold updates only.
 */
export function composeUpdates(first: SnapshotDelta, second: SnapshotDelta): SnapshotDelta {
  const compose = <T extends { id: string }>(a: EntityDelta<T>[] = [], b: EntityDelta<T>[] = []): EntityDelta<T>[] | undefined => {
    const merged = new Map(a.map((d) => [d.id, { id: d.id, before: { ...d.before }, after: { ...d.after } }]));
    for (const d of b) {
      const earlier = merged.get(d.id);
      if (!earlier) merged.set(d.id, { id: d.id, before: { ...d.before }, after: { ...d.after } });
      else merged.set(d.id, { id: d.id, before: { ...d.before, ...earlier.before }, after: { ...earlier.after, ...d.after } });
    }
    return merged.size ? [...merged.values()] : undefined;
  };
  const delta: SnapshotDelta = {};
  if (first.workflow || second.workflow) {
    delta.workflow = {
      before: { ...second.workflow?.before, ...first.workflow?.before },
      after: { ...first.workflow?.after, ...second.workflow?.after },
    };
  }
  const steps = compose(first.steps, second.steps);
  if (steps) delta.steps = steps;
  const variables = compose(first.variables, second.variables);
  if (variables) delta.variables = variables;
  return delta;
}

/** The two commits' changes as one list: each entity once, with the union of its changed fields. */
export function unionOfChanges(first: Change[], second: Change[]): Change[] {
  const merged = new Map(first.map((c) => [`${c.entity}:${c.id}`, { ...c, fields: c.fields && [...c.fields] }]));
  for (const c of second) {
    const key = `${c.entity}:${c.id}`;
    const earlier = merged.get(key);
    if (!earlier) merged.set(key, { ...c, fields: c.fields && [...c.fields] });
    else if (earlier.fields && c.fields) earlier.fields = [...new Set([...earlier.fields, ...c.fields])];
  }
  return [...merged.values()];
}

// ---- secrets: their values never enter the history ----

/**
 * Stands for "this secret had a value" in stored states and deltas, so a commit shows `has_value`
 * without keeping the sealed text (which would otherwise be copied into every commit forever).
 */
export const SECRET_LEFT_OUT = '*';

/** The state as the history keeps it: secret values replaced by SECRET_LEFT_OUT. */
export function forHistory(state: WorkflowSnapshot): WorkflowSnapshot {
  if (!state.variables.some((v) => v.type === 'secret' && v.value !== null)) return state;
  return { ...state, variables: state.variables.map((v) => (v.type === 'secret' && v.value !== null ? { ...v, value: SECRET_LEFT_OUT } : v)) };
}

/**
 * A state from the history made real again: each secret takes the current value of the same
 * variable (undo, redo and restore never change a secret's value, since the history does not know
 * it). A secret that had a value in that state but has none now (it was deleted meanwhile, or is no
 * longer a secret) comes back empty and is named in `emptied`, so the user can be told to set it.
 */
export function withCurrentSecrets(target: WorkflowSnapshot, current: WorkflowSnapshot): { state: WorkflowSnapshot; emptied: string[] } {
  const now = new Map(current.variables.map((v) => [v.id, v]));
  const emptied: string[] = [];
  const variables = target.variables.map((v) => {
    if (v.type !== 'secret') return v;
    const live = now.get(v.id);
    const value = live?.type === 'secret' ? live.value : null;
    if (value === null && v.value !== null) emptied.push(v.name);
    return { ...v, value };
  });
  return { state: { ...target, variables }, emptied };
}
