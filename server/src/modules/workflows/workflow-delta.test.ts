import { applyDelta, composeUpdates, deltaBetween, forHistory, isMoveOnly, SECRET_LEFT_OUT, unionOfChanges, withCurrentSecrets } from './workflow-delta';
import { diffSnapshots, sameJson, type StepState, type VariableState, type WorkflowSnapshot } from './workflow-state';

const step = (id: string, extra: Partial<StepState> = {}): StepState => ({
  id,
  step_type: 'filter',
  name: id.toUpperCase(),
  param_inputs: { condition: 'x > 1', mode: 'keep' },
  inputs: [],
  position: { x: 0, y: 0 },
  ...extra,
});
const variable = (id: string, extra: Partial<VariableState> = {}): VariableState => ({ id, name: id, type: 'string', description: '', value: '"v"', ...extra });
const state = (extra: Partial<WorkflowSnapshot> = {}): WorkflowSnapshot => ({ name: 'W', description: '', tags: [], steps: [], variables: [], ...extra });

describe('workflow deltas', () => {
  it('records only what changed, and applying it gives the state after', () => {
    const before = state({ steps: [step('a'), step('b'), step('c')], variables: [variable('v1')] });
    const after = state({
      name: 'Renamed',
      steps: [step('a', { param_inputs: { condition: 'x > 2', mode: 'keep' } }), step('c', { inputs: ['a'] }), step('d')],
      variables: [variable('v1', { description: 'now described' }), variable('v2')],
    });
    const delta = deltaBetween(before, after);
    expect(delta.workflow).toEqual({ before: { name: 'W' }, after: { name: 'Renamed' } });
    expect(delta.steps).toEqual([
      { id: 'a', before: { param_inputs: { condition: 'x > 1', mode: 'keep' } }, after: { param_inputs: { condition: 'x > 2', mode: 'keep' } } },
      { id: 'c', before: { inputs: [] }, after: { inputs: ['a'] } },
      { id: 'd', after: { step_type: 'filter', name: 'D', param_inputs: { condition: 'x > 1', mode: 'keep' }, inputs: [], position: { x: 0, y: 0 } } },
      { id: 'b', before: expect.objectContaining({ name: 'B' }) },
    ]);
    expect(delta.variables).toHaveLength(2);
    expect(applyDelta(before, delta)).toEqual(after);
    expect(deltaBetween(after, after)).toEqual({});
  });

  it('compares values as JSON: key order does not make a change', () => {
    expect(sameJson({ x: 1, y: 2 }, { y: 2, x: 1 })).toBe(true);
    expect(sameJson({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] })).toBe(false);
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    const read = state({ steps: [step('a', { position: { x: 5, y: 6 } })] });
    const rebuilt = state({ steps: [step('a', { position: { y: 6, x: 5 } as { x: number; y: number } })] });
    expect(diffSnapshots(read, rebuilt, 'w')).toEqual([]);
  });

  it('folds consecutive moves into one: positions before the first, after the last', () => {
    const start = state({ steps: [step('a'), step('b')] });
    const first = state({ steps: [step('a', { position: { x: 10, y: 0 } }), step('b')] });
    const second = state({ steps: [step('a', { position: { x: 20, y: 0 } }), step('b', { position: { x: 0, y: 30 } })] });
    const merged = composeUpdates(deltaBetween(start, first), deltaBetween(first, second));
    expect(merged.steps).toEqual([
      { id: 'a', before: { position: { x: 0, y: 0 } }, after: { position: { x: 20, y: 0 } } },
      { id: 'b', before: { position: { x: 0, y: 0 } }, after: { position: { x: 0, y: 30 } } },
    ]);
    expect(applyDelta(start, merged)).toEqual(second);
    const changes = unionOfChanges(diffSnapshots(start, first, 'w'), diffSnapshots(first, second, 'w'));
    expect(changes).toEqual([
      { entity: 'step', id: 'a', op: 'update', fields: ['position'] },
      { entity: 'step', id: 'b', op: 'update', fields: ['position'] },
    ]);
    expect(isMoveOnly(changes)).toBe(true);
    expect(isMoveOnly([{ entity: 'step', id: 'a', op: 'update', fields: ['position', 'name'] }])).toBe(false);
    expect(isMoveOnly([])).toBe(false);
  });

  it('keeps secret values out of the history and takes the current ones when a state comes back', () => {
    const live = state({
      variables: [variable('key', { type: 'secret', value: 'v1:now' }), variable('empty', { type: 'secret', value: null }), variable('plain')],
    });
    const stored = forHistory(state({ variables: [...live.variables, variable('gone', { type: 'secret', value: 'v1:old' })] }));
    expect(JSON.stringify(stored)).not.toContain('v1:');
    expect(stored.variables.map((v) => v.value)).toEqual([SECRET_LEFT_OUT, null, '"v"', SECRET_LEFT_OUT]);

    const { state: back, emptied } = withCurrentSecrets(stored, live);
    expect(back.variables.map((v) => [v.id, v.value])).toEqual([
      ['key', 'v1:now'],
      ['empty', null],
      ['plain', '"v"'],
      ['gone', null],
    ]);
    expect(emptied).toEqual(['gone']);
    // A secret that is no longer a secret cannot lend its plain value.
    const turnedPlain = state({ variables: [variable('key', { type: 'string', value: '"visible"' })] });
    expect(withCurrentSecrets(forHistory(live), turnedPlain).state.variables[0]).toMatchObject({ id: 'key', type: 'secret', value: null });
  });
});
