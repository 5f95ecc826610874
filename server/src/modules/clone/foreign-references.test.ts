import type { WorkflowSnapshot } from '../workflows/workflow-state';
import { candidateIds, withoutForeignReferences } from './foreign-references';

const snapshot = (steps: [string, Record<string, unknown>][]): WorkflowSnapshot => ({
  name: 'w',
  description: '',
  tags: [],
  steps: steps.map(([step_type, param_inputs], i) => ({ id: `s${i}`, step_type, name: `Step ${i}`, param_inputs, inputs: [], position: { x: 0, y: 0 } })),
  variables: [],
});

describe('foreign references', () => {
  it('sorts the ids by what they must name: files, folders, datasets', () => {
    const ids = candidateIds(
      snapshot([
        ['import_csv', { file: 'f-1' }],
        ['import_folder', { folder: 'd-1' }],
        ['import_dataset', { dataset: 'ds-1' }],
      ]),
    );
    expect(ids).toEqual({ file: ['f-1'], folder: ['d-1'], dataset: ['ds-1'] });
  });

  it('keeps a folder param only when the id is one of the owner’s folders, not merely one of their files', () => {
    const workflow = snapshot([
      ['import_folder', { folder: 'x-1' }],
      ['import_folder', { folder: 'd-1' }],
      ['import_csv', { file: 'd-1' }],
    ]);
    const { snapshot: copy, dropped } = withoutForeignReferences(workflow, { file: new Set(['x-1']), folder: new Set(['d-1']), dataset: new Set() });
    expect(copy.steps.map((s) => s.param_inputs)).toEqual([{}, { folder: 'd-1' }, {}]);
    expect(dropped.steps.map((s) => [s.name, s.params])).toEqual([
      ['Step 0', ['folder']],
      ['Step 2', ['file']],
    ]);
  });
});
