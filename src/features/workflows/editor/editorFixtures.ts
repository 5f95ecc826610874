import type { StepInfoOut } from '../../../../server/src/modules/step-infos/step-infos.schemas';
import type { StepOut } from '../../../../server/src/modules/steps/steps.schemas';
import type { WorkflowOut } from '../../../../server/src/modules/workflows/workflows.schemas';

// Fixtures shared by the editor's component tests: a catalogue entry with just the input bounds a
// test cares about, and workflow w-1 holding the given steps.

/** A step info with no params; `min`/`max` are its input bounds. */
export const info = (id: string, name: string, category: StepInfoOut['category'], min: number, max: number | null): StepInfoOut => ({
  id,
  name,
  description: name,
  category,
  tags: [],
  params: [],
  inputs: { min, max },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: '' },
  customized: false,
});

/** Workflow w-1 ("Sales report", private) with these steps. */
export function workflowWith(steps: StepOut[], version = 1): WorkflowOut {
  return {
    id: 'w-1',
    name: 'Sales report',
    description: '',
    tags: [],
    visibility: 'private',
    version,
    step_count: steps.length,
    clone_count: 0,
    cloned_from_id: null,
    published_at: null,
    published_version: null,
    created_at: '2026-11-20T10:00:00.000Z',
    updated_at: '2026-11-20T10:00:00.000Z',
    owner_id: 'u-1',
    steps,
    variables: [],
    can_undo: false,
    can_redo: false,
  };
}
