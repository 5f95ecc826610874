import type { ParamOut } from '../../../server/src/modules/step-infos/step-infos.schemas';
import type { StepOut } from '../../../server/src/modules/steps/steps.schemas';
import { draftSaved, draftStatus, fingerprint, paramEdited, stepDraftsReducer, type StepDraft, type StepDraftsState } from './stepDrafts';
import { MAX_AGE_MS, MAX_DRAFTS, MAX_VALUE_CHARS, readDrafts, writeDrafts } from './stepDraftsStorage';

const condition: ParamOut = { name: 'condition', type: 'expression', label: 'Condition', help: '', required: true };
const token: ParamOut = { name: 'token', type: 'secret', label: 'Token', help: '', required: false };
const step: StepOut = {
  id: 's-1',
  workflow_id: 'w-1',
  step_type: 'filter',
  name: 'Big ones',
  param_inputs: { condition: 'amount > 5' },
  inputs: [],
  position: { x: 0, y: 0 },
};

const NOW = Date.UTC(2026, 10, 23);
const draft = (stepId: string, at: number, params: Record<string, unknown> = { condition: 'x' }): StepDraft => ({
  workflowId: 'w-1',
  stepId,
  params,
  base: Object.fromEntries(Object.keys(params).map((k) => [k, fingerprint(null)])),
  at,
});
const empty: StepDraftsState = { owner: 'u-1', entries: {} };
const edit = (state: StepDraftsState, param: ParamOut, value: unknown, on: StepOut = step) => stepDraftsReducer(state, paramEdited('w-1', on, param, value));

describe('step drafts in memory', () => {
  it('keep a changed value, and let go of one typed back to what is saved', () => {
    const typed = edit(empty, condition, 'amount > 50');
    expect(typed.entries['w-1/s-1'].params).toEqual({ condition: 'amount > 50' });
    expect(draftStatus(typed.entries['w-1/s-1'], step, [condition])).toEqual({ unsaved: true, changedUnderneath: false });
    expect(edit(typed, condition, 'amount > 5').entries).toEqual({});
  });

  it('after a save, keep only what was typed while it was on its way, measured against the new saved value', () => {
    const typed = edit(empty, condition, 'amount > 50');
    const saved = stepDraftsReducer(
      typed,
      draftSaved({ workflowId: 'w-1', stepId: 's-1', params: { condition: 'amount > 50' }, values: { condition: 'amount > 50' } }),
    );
    expect(saved.entries).toEqual({});

    const more = edit(typed, condition, 'amount > 500');
    const after = stepDraftsReducer(
      more,
      draftSaved({ workflowId: 'w-1', stepId: 's-1', params: { condition: 'amount > 50' }, values: { condition: 'amount > 50' } }),
    );
    const savedStep = { ...step, param_inputs: { condition: 'amount > 50' } };
    expect(draftStatus(after.entries['w-1/s-1'], savedStep, [condition])).toEqual({ unsaved: true, changedUnderneath: false });
  });

  it('notice the saved step changing underneath a changed param', () => {
    const typed = edit(empty, condition, 'amount > 50');
    const undone = { ...step, param_inputs: { condition: 'amount > 100' } };
    expect(draftStatus(typed.entries['w-1/s-1'], undone, [condition])).toEqual({ unsaved: true, changedUnderneath: true });
  });

  it(`hold at most ${MAX_DRAFTS}, dropping the oldest`, () => {
    let state = empty;
    for (let i = 0; i <= MAX_DRAFTS; i++) state = edit(state, condition, `v${i}`, { ...step, id: `s-${i}` });
    expect(Object.keys(state.entries)).toHaveLength(MAX_DRAFTS);
  });
});

describe('step drafts in the browser storage', () => {
  afterEach(() => localStorage.clear());

  it("are kept per user: one user's drafts are not another's", () => {
    writeDrafts('u-1', { 'w-1/s-1': draft('s-1', NOW) }, NOW);
    expect(Object.keys(readDrafts('u-1', NOW))).toEqual(['w-1/s-1']);
    expect(readDrafts('u-2', NOW)).toEqual({});
  });

  it('never hold secrets or oversized values', () => {
    const typed = edit(empty, token, 'sk-live-123').entries['w-1/s-1'];
    writeDrafts('u-1', { 'w-1/s-1': typed, 'w-1/s-2': draft('s-2', NOW, { condition: 'x'.repeat(MAX_VALUE_CHARS + 1), other: 'kept' }) }, NOW);
    expect(localStorage.getItem('stepwise.stepDrafts.u-1')).not.toContain('sk-live-123');
    const stored = readDrafts('u-1', NOW);
    expect(stored['w-1/s-1']).toBeUndefined();
    expect(stored['w-1/s-2'].params).toEqual({ other: 'kept' });
  });

  it(`hold at most ${MAX_DRAFTS}, none too old, and keep what another tab wrote`, () => {
    writeDrafts('u-1', { 'w-1/old': draft('old', NOW - MAX_AGE_MS - 1), 'w-1/other-tab': draft('other-tab', NOW - 1) }, NOW - 1);
    const many = Object.fromEntries(Array.from({ length: MAX_DRAFTS + 5 }, (_, i) => [`w-1/s-${i}`, draft(`s-${i}`, NOW - 1000 + i)]));
    writeDrafts('u-1', many, NOW);
    const stored = readDrafts('u-1', NOW);
    expect(Object.keys(stored)).toHaveLength(MAX_DRAFTS);
    expect(stored['w-1/other-tab']).toBeDefined();
    expect(stored['w-1/old']).toBeUndefined();
    expect(stored['w-1/s-0']).toBeUndefined();
  });

  it('ignore what is not a well-formed draft', () => {
    localStorage.setItem('stepwise.stepDrafts.u-1', JSON.stringify({ 'w-1/s-1': draft('s-1', NOW), 'w-1/s-9': draft('s-2', NOW), 'w-1/s-3': { params: 1 } }));
    expect(Object.keys(readDrafts('u-1', NOW))).toEqual(['w-1/s-1']);
    localStorage.setItem('stepwise.stepDrafts.u-1', 'not json');
    expect(readDrafts('u-1', NOW)).toEqual({});
  });
});
