import { http, HttpResponse } from 'msw';
import type { StepInfoOut } from '../../../../server/src/modules/step-infos/step-infos.schemas';
import type { StepOut } from '../../../../server/src/modules/steps/steps.schemas';
import type { WorkflowOut } from '../../../../server/src/modules/workflows/workflows.schemas';
import { api } from '../../../test/handlers';
import { server } from '../../../test/server';
import type { Commit } from '../../history/historyApi';

// Fixtures shared by the editor's component tests: a catalogue entry with just the input bounds a
// test cares about, workflow w-1 holding the given steps, and the editor of w-1 served through msw.

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

/** The catalogue most editor tests need: a CSV import (a source) and a filter (one input). */
export const catalogue: StepInfoOut[] = [info('import_csv', 'Import CSV', 'source', 0, 0), info('filter', 'Filter rows', 'transform', 1, 1)];

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

/** The first commit of w-1's history (c-1, version 1), which added its first step. */
export const firstCommit = (message: string): Commit => ({
  id: 'c-1',
  workflow_id: 'w-1',
  seq: 1,
  kind: 'create',
  message,
  author: null,
  changes: [],
  created_at: '2026-11-20T10:00:00.000Z',
});

export interface EditorWorld {
  /** Workflow w-1 as the server has it; a function is asked at each read, for a test that changes the workflow. */
  workflow: WorkflowOut | (() => WorkflowOut);
  /** The step catalogue; `catalogue` unless given. */
  infos?: StepInfoOut[];
  /** The commits the History tab lists; none unless given. */
  commits?: Commit[];
}

/**
 * Signs in and serves the editor of w-1: the workflow, the step catalogue (no categories), no
 * variables, nothing for a step's settings to reference, and the history's commits. Runs and cost
 * estimates stay the default handlers' (none; no billing). A later server.use(...) in the test wins
 * over these.
 */
export function serveEditor({ workflow, infos = catalogue, commits = [] }: EditorWorld): void {
  localStorage.setItem('accessToken', 'good');
  const current = typeof workflow === 'function' ? workflow : () => workflow;
  server.use(
    http.get(api('/workflows/w-1'), () => HttpResponse.json(current())),
    http.get(api('/workflow-step-infos'), () => HttpResponse.json({ items: infos, total: infos.length, page: 1, page_size: 200, ranking: 'text' })),
    http.get(api('/workflow-step-infos/categories'), () => HttpResponse.json({ items: [] })),
    http.get(api('/workflows/w-1/variables'), () => HttpResponse.json({ items: [] })),
    http.get(api('/workflows/w-1/steps/:stepId/variable-fields'), () => HttpResponse.json({ variables: [], fields: [], notes: [], preview_step_ids: [] })),
    http.post(api('/workflow-history/commits'), () => HttpResponse.json({ items: commits, total: commits.length, page: 1, page_size: 50 })),
  );
}

/**
 * Answers each run of w-1 asked for with a refusal (422), as the server refuses a workflow not
 * ready to run, and records the step it targeted: a test expecting none asked checks the list.
 */
export function refuseRuns(): string[] {
  const started: string[] = [];
  server.use(
    http.post(api('/workflow-execution/w-1/steps/:stepId/execute'), ({ params }) => {
      started.push(String(params.stepId));
      return HttpResponse.json({ detail: 'Refused.' }, { status: 422 });
    }),
  );
  return started;
}
