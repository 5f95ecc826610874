import { createListenerMiddleware, createSelector, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ParamOut } from '../../../server/src/modules/step-infos/step-infos.schemas';
import type { StepOut } from '../../../server/src/modules/steps/steps.schemas';
import type { AuthState } from '../auth/authSlice';
import { sameValue, toDraft } from './paramValues';
import { draftKey, fullyStorable, MAX_DRAFTS, readDrafts, writeDrafts, type Drafts } from './stepDraftsStorage';

// Why drafts exist: a step's settings are sent only by an explicit Save (each save is one commit in
// the workflow's history, so Undo takes back a whole edit, not a keystroke). Before drafts, whatever
// was typed and not yet saved was thrown away without a word when another step was clicked, the
// top navigation was used or the page reloaded. Now every edit is kept here as it is typed, per
// workflow and step: in the store while the app runs, and in the browser's storage for a reload
// (stepDraftsStorage.ts), under the signed-in user's id so another account on the same browser
// never sees them. The inspector shows a draft and saves or discards it; the canvas marks the steps
// that have one. A draft remembers what the saved step held when it began, so a step changed
// underneath (Undo, another tab) is pointed out instead of either side being overwritten.

export interface StepDraft {
  workflowId: string;
  stepId: string;
  /** The params the user changed, as the form's controls hold them (numbers and JSON as text). */
  params: Record<string, unknown>;
  /** A fingerprint of each of those params' saved value when the user began changing it. */
  base: Record<string, string>;
  /** A step name being typed, and the saved name when typing began. */
  name?: string;
  baseName?: string;
  /** Params whose values must not be written to the browser's storage (secrets). */
  secret?: string[];
  /** When it was last edited (ms since 1970): the oldest drafts go first. */
  at: number;
}

export interface StepDraftsState {
  /** Whose drafts these are (the signed-in user's id); null when nobody is signed in. */
  owner: string | null;
  entries: Drafts;
}

const initialState: StepDraftsState = { owner: null, entries: {} };

/** A short, stable fingerprint of a value (53-bit cyrb53 of its JSON): drafts compare saved values
 *  without keeping them, so a long saved template costs a few bytes and a saved secret none. */
export function fingerprint(value: unknown): string {
  const text = JSON.stringify(value ?? null);
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

const isEmpty = (draft: StepDraft) => Object.keys(draft.params).length === 0 && draft.name === undefined;

function entryFor(state: StepDraftsState, workflowId: string, stepId: string, at: number): StepDraft {
  const key = draftKey(workflowId, stepId);
  state.entries[key] ??= { workflowId, stepId, params: {}, base: {}, at };
  state.entries[key].at = at;
  return state.entries[key];
}

/** Drops a draft left with nothing in it, and the oldest beyond MAX_DRAFTS. */
function tidy(state: StepDraftsState, key: string) {
  const draft = state.entries[key];
  if (draft && isEmpty(draft)) delete state.entries[key];
  const oldestFirst = Object.entries(state.entries).sort(([, a], [, b]) => a.at - b.at);
  for (const [k] of oldestFirst.slice(0, Math.max(0, oldestFirst.length - MAX_DRAFTS))) delete state.entries[k];
}

interface ParamEdit {
  workflowId: string;
  stepId: string;
  param: string;
  value: unknown;
  /** The value is what the saved step holds: nothing to keep. */
  unchanged: boolean;
  savedPrint: string;
  secret: boolean;
  at: number;
}

interface Saved {
  workflowId: string;
  stepId: string;
  /** The control values that were sent, and the values they were sent as. */
  params: Record<string, unknown>;
  values: Record<string, unknown>;
  /** The name that was sent, as typed. */
  name?: string;
}

const stepDraftsSlice = createSlice({
  name: 'stepDrafts',
  initialState,
  reducers: {
    draftsLoaded(_state, action: PayloadAction<StepDraftsState>) {
      return action.payload;
    },
    paramEdited: {
      prepare: (workflowId: string, step: StepOut, param: ParamOut, value: unknown) => {
        const saved = step.param_inputs[param.name];
        const payload: ParamEdit = {
          workflowId,
          stepId: step.id,
          param: param.name,
          value,
          unchanged: sameValue(value, toDraft(param, saved)),
          savedPrint: fingerprint(saved),
          secret: param.type === 'secret',
          at: Date.now(),
        };
        return { payload };
      },
      reducer(state, { payload: p }: PayloadAction<ParamEdit>) {
        const draft = entryFor(state, p.workflowId, p.stepId, p.at);
        if (p.unchanged) {
          delete draft.params[p.param];
          delete draft.base[p.param];
        } else {
          draft.params[p.param] = p.value;
          draft.base[p.param] ??= p.savedPrint;
          if (p.secret && !draft.secret?.includes(p.param)) draft.secret = [...(draft.secret ?? []), p.param];
        }
        tidy(state, draftKey(p.workflowId, p.stepId));
      },
    },
    nameEdited: {
      prepare: (workflowId: string, step: StepOut, name: string) => ({ payload: { workflowId, stepId: step.id, name, saved: step.name, at: Date.now() } }),
      reducer(state, { payload: p }: PayloadAction<{ workflowId: string; stepId: string; name: string; saved: string; at: number }>) {
        const draft = entryFor(state, p.workflowId, p.stepId, p.at);
        if (p.name === p.saved) {
          delete draft.name;
          delete draft.baseName;
        } else {
          draft.baseName ??= p.saved;
          draft.name = p.name;
        }
        tidy(state, draftKey(p.workflowId, p.stepId));
      },
    },
    /** A save went through: what is still as it was sent is no longer a draft. What was typed
     *  meanwhile stays, now measured against the values just saved. */
    draftSaved(state, { payload: p }: PayloadAction<Saved>) {
      const key = draftKey(p.workflowId, p.stepId);
      const draft = state.entries[key];
      if (!draft) return;
      for (const [name, control] of Object.entries(p.params)) {
        if (sameValue(draft.params[name], control)) {
          delete draft.params[name];
          delete draft.base[name];
        } else if (name in p.values) draft.base[name] = fingerprint(p.values[name]);
      }
      if (p.name !== undefined && draft.name !== undefined) {
        if (draft.name === p.name) {
          delete draft.name;
          delete draft.baseName;
        } else draft.baseName = p.name.trim();
      }
      if (isEmpty(draft)) delete state.entries[key];
    },
    /** "Keep my changes" after the step changed underneath: the draft now builds on what is saved. */
    draftRebased: {
      prepare: (workflowId: string, step: StepOut) => ({
        payload: {
          workflowId,
          stepId: step.id,
          prints: Object.fromEntries(Object.entries(step.param_inputs).map(([k, v]) => [k, fingerprint(v)])),
          name: step.name,
        },
      }),
      reducer(state, { payload: p }: PayloadAction<{ workflowId: string; stepId: string; prints: Record<string, string>; name: string }>) {
        const draft = state.entries[draftKey(p.workflowId, p.stepId)];
        if (!draft) return;
        for (const name of Object.keys(draft.params)) draft.base[name] = p.prints[name] ?? fingerprint(null);
        if (draft.name !== undefined) draft.baseName = p.name;
      },
    },
    draftDiscarded(state, { payload }: PayloadAction<{ workflowId: string; stepId: string }>) {
      delete state.entries[draftKey(payload.workflowId, payload.stepId)];
    },
    /** These steps are gone (deleted here, or by Undo or another tab). */
    draftsOfStepsDropped(state, { payload }: PayloadAction<{ workflowId: string; stepIds: string[] }>) {
      for (const stepId of payload.stepIds) delete state.entries[draftKey(payload.workflowId, stepId)];
    },
  },
});

export const { draftsLoaded, paramEdited, nameEdited, draftSaved, draftRebased, draftDiscarded, draftsOfStepsDropped } = stepDraftsSlice.actions;
export const stepDraftsReducer = stepDraftsSlice.reducer;

interface State {
  auth: AuthState;
  stepDrafts: StepDraftsState;
}

export const selectStepDraft = (state: State, workflowId: string, stepId: string): StepDraft | undefined =>
  state.stepDrafts.entries[draftKey(workflowId, stepId)];

/** The ids of the workflow's steps with a draft, as one sorted string: a stable value to select. */
export const selectDraftedStepIds = (state: State, workflowId: string): string =>
  Object.values(state.stepDrafts.entries)
    .filter((d) => d.workflowId === workflowId)
    .map((d) => d.stepId)
    .sort()
    .join(' ');

/** Some draft holds what a reload would lose (a secret, an oversized value). */
export const selectDraftsAtRisk = createSelector([(state: State) => state.stepDrafts.entries], (entries) =>
  Object.values(entries).some((d) => !fullyStorable(d)),
);

export interface DraftStatus {
  /** What the inspector shows differs from the saved step. */
  unsaved: boolean;
  /** The saved step changed since the draft began, in something the draft changes too. */
  changedUnderneath: boolean;
}

/** Where a step's draft stands against the step as saved now. */
export function draftStatus(draft: StepDraft | undefined, step: StepOut, params: ParamOut[]): DraftStatus {
  if (!draft) return { unsaved: false, changedUnderneath: false };
  const changed = params.filter((p) => p.name in draft.params && !sameValue(draft.params[p.name], toDraft(p, step.param_inputs[p.name])));
  const nameChanged = draft.name !== undefined && draft.name !== step.name;
  return {
    unsaved: changed.length > 0 || nameChanged,
    changedUnderneath: changed.some((p) => draft.base[p.name] !== fingerprint(step.param_inputs[p.name])) || (nameChanged && draft.baseName !== step.name),
  };
}

/**
 * Loads the signed-in user's drafts when who is signed in changes (and forgets them on sign-out),
 * and writes each change of a draft to the browser's storage as it happens.
 */
export function createStepDraftsMiddleware() {
  const listener = createListenerMiddleware();
  const startListening = listener.startListening.withTypes<State>();

  startListening({
    predicate: (_action, current, previous) => current.auth.user?.id !== previous.auth.user?.id,
    effect: (_action, api) => {
      const owner = api.getState().auth.user?.id ?? null;
      api.dispatch(draftsLoaded({ owner, entries: owner ? readDrafts(owner) : {} }));
    },
  });

  startListening({
    predicate: (action, current, previous) =>
      !draftsLoaded.match(action) && current.stepDrafts.owner !== null && current.stepDrafts.entries !== previous.stepDrafts.entries,
    effect: (_action, api) => {
      const before = api.getOriginalState().stepDrafts.entries;
      const { owner, entries } = api.getState().stepDrafts;
      const changes: Record<string, StepDraft | null> = {};
      for (const key of new Set([...Object.keys(before), ...Object.keys(entries)])) {
        if (before[key] !== entries[key]) changes[key] = entries[key] ?? null;
      }
      if (owner) writeDrafts(owner, changes);
    },
  });

  return listener.middleware;
}
