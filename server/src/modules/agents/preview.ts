import { getStepDescription } from '../../engine/step-types';
import type { MessageValues } from '../../i18n/messages';
import { conflict, notFound } from '../../lib/errors';
import type { DatasetsService } from '../datasets/datasets.service';
import type { RunEngine } from '../../engine/run';
import type { RunsService } from '../runs/runs.service';
import type { WorkflowSnapshot } from '../workflows/workflow-state';

export interface PreviewDeps {
  runEngine: RunEngine;
  runs: RunsService;
  datasets: DatasetsService;
}

export interface Preview {
  run_id: string;
  state: string;
  error: string | null;
  columns: { name: string; type: string }[];
  records: Record<string, unknown>[];
}

/** A preview runs on at most this many records, and is waited for at most this long. */
export const MAX_PREVIEW_RECORDS = 20;
const PREVIEW_WAIT_MS = 60_000;
const FINAL = new Set(['succeeded', 'failed', 'cancelled', 'skipped', 'cached']);

/**
 * Runs a step on a sample of records through the run engine's sample mode (`up_to` with
 * sample_size: the step and what it needs) and answers its first output records. Never runs an
 * export or a webhook (an output step), there or upstream: those wait for the user's own click.
 */
export async function previewStep(
  deps: PreviewDeps,
  userId: string,
  snapshot: WorkflowSnapshot & { id: string },
  stepId: string,
  sampleSize: number,
  t: (key: string, values?: MessageValues) => string,
  signal?: AbortSignal,
): Promise<Preview> {
  const byId = new Map(snapshot.steps.map((s) => [s.id, s]));
  if (!byId.has(stepId)) throw notFound('server.steps.notFound');
  const needed = new Set<string>();
  const visit = (id: string) => {
    if (needed.has(id) || !byId.has(id)) return;
    needed.add(id);
    byId.get(id)!.inputs.forEach(visit);
  };
  visit(stepId);
  for (const id of needed) {
    const step = byId.get(id)!;
    if (getStepDescription(step.step_type)?.category === 'output') throw conflict('server.agents.previewRefused', { name: step.name });
  }
  const size = Math.max(1, Math.min(MAX_PREVIEW_RECORDS, sampleSize));
  const runId = await deps.runEngine.start(userId, snapshot.id, stepId, { mode: 'up_to', sampleSize: size, startedBy: 'agent' });
  const until = Date.now() + PREVIEW_WAIT_MS;
  let run = await deps.runs.run(userId, runId, t);
  while (!FINAL.has(run.state) && Date.now() < until && !signal?.aborted) {
    await new Promise((r) => setTimeout(r, 100));
    run = await deps.runs.run(userId, runId, t);
  }
  const target = run.step_runs.find((s) => s.step_id === stepId);
  const error = target?.error?.message ?? run.error?.message ?? null;
  if (!target?.output_dataset_id || !FINAL.has(run.state)) return { run_id: runId, state: run.state, error, columns: [], records: [] };
  const page = await deps.datasets.records(userId, target.output_dataset_id, { page: 1, pageSize: size }, []);
  return { run_id: runId, state: run.state, error, columns: page.columns, records: page.items };
}
