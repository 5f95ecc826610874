import { diffSnapshots, findCycle, graphProblems, withNewIds, type StepState, type WorkflowSnapshot } from './workflow-state';

const step = (id: string, inputs: string[] = [], type = 'filter'): StepState => ({
  id,
  step_type: type,
  name: id.toUpperCase(),
  param_inputs: {},
  inputs,
  position: { x: 0, y: 0 },
});
const limits = (type: string) => ({ import_csv: { min: 0, max: 0 }, filter: { min: 1, max: 1 }, join: { min: 2, max: 2 } })[type] ?? null;

describe('graph rules', () => {
  it('accepts a DAG, including a join of two branches', () => {
    expect(graphProblems([step('a', [], 'import_csv'), step('b', ['a']), step('c', ['a']), step('d', ['b', 'c'], 'join')], limits)).toEqual([]);
  });

  it('names a cycle with its steps, in order', () => {
    const steps = [step('a', [], 'import_csv'), step('b', ['d']), step('c', ['b']), step('d', ['c'])];
    expect(findCycle(steps)).toEqual(['b', 'd', 'c', 'b']);
    expect(graphProblems(steps, limits)).toEqual([{ key: 'server.steps.cycle', values: { path: 'B → D → C → B' }, loc: ['body', 'inputs'] }]);
  });

  it('refuses dangling, self and duplicate inputs, too many inputs and unknown types', () => {
    const problems = graphProblems(
      [step('a', ['ghost']), step('b', ['b']), step('c', ['a', 'a'], 'join'), step('d', ['a', 'c']), step('e', [], 'nope')],
      limits,
    );
    expect(problems.map((p) => p.key)).toEqual([
      'server.steps.danglingInput',
      'server.steps.selfInput',
      'server.steps.duplicateInput',
      'server.steps.tooManyInputs',
      'server.steps.unknownType',
    ]);
    // Each names the field a request sends, not the step's place in the stored state.
    expect(problems.map((p) => p.loc)).toEqual([
      ['body', 'inputs'],
      ['body', 'inputs'],
      ['body', 'inputs'],
      ['body', 'inputs'],
      ['body', 'step_type'],
    ]);
  });

  it('finds no cycle in a 10,000-step chain without running out of stack', () => {
    const steps = Array.from({ length: 10_000 }, (_, i) => step(`s${i}`, i ? [`s${i - 1}`] : []));
    expect(findCycle(steps)).toBeNull();
  });
});

describe('diffSnapshots', () => {
  const base: WorkflowSnapshot = { name: 'W', description: '', tags: [], steps: [step('a'), step('b')], variables: [] };

  it('reports created, updated (with fields) and deleted entities', () => {
    const after: WorkflowSnapshot = { ...base, name: 'W2', steps: [{ ...step('a'), name: 'Renamed' }, step('c')] };
    expect(diffSnapshots(base, after, 'w1')).toEqual([
      { entity: 'workflow', id: 'w1', op: 'update', fields: ['name'] },
      { entity: 'step', id: 'a', op: 'update', fields: ['name'] },
      { entity: 'step', id: 'c', op: 'create' },
      { entity: 'step', id: 'b', op: 'delete' },
    ]);
    expect(diffSnapshots(base, structuredClone(base), 'w1')).toEqual([]);
  });

  it('withNewIds gives every step a new id and keeps the wiring', () => {
    let n = 0;
    const copy = withNewIds({ ...base, steps: [step('a'), step('b', ['a'])] }, () => `new${++n}`);
    expect(copy.steps.map((s) => [s.id, s.inputs])).toEqual([
      ['new1', []],
      ['new2', ['new1']],
    ]);
  });
});
