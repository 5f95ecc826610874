import { defaultParams, validateParams } from '../../engine/params';
import { getStepDescription } from '../../engine/step-types';
import type { ParamSpec, StepTypeDescription } from '../../engine/step-types/step-type';
import { ValidationFailed, type Problem } from '../../lib/errors';
import { acceptsFile, isReference, paramLabel } from '../../engine/params';
import type { Db } from '../../db/database';
import { DatasetLookupsService } from '../datasets/dataset-lookups.service';
import { FileLookupsService } from '../files/file-lookups.service';
import type { StepState, WorkflowSnapshot } from '../workflows/workflow-state';

// Rules for steps that need the catalogue: which type, which params, which name.

export function stepTypeOrFail(id: string, loc: (string | number)[] = ['body', 'step_type']): StepTypeDescription {
  const type = getStepDescription(id);
  if (!type) throw new ValidationFailed([{ key: 'server.steps.unknownType', values: { type: id }, loc }]);
  return type;
}

/** Checks param inputs against the step type's schema; problems point at the param. */
export function checkParams(type: StepTypeDescription, values: Record<string, unknown>, mode: 'replace' | 'merge', current?: Record<string, unknown>): void {
  const problems: Problem[] = validateParams(type, values, mode, current).map((issue) => ({
    key: issue.key,
    values: issue.values,
    words: issue.words,
    loc: ['body', 'param_inputs', issue.param],
    label: paramLabel(type, issue.param),
  }));
  if (problems.length) throw new ValidationFailed(problems);
}

/** "Filter", then "Filter 2", "Filter 3"… so steps stay tellable apart on the canvas. */
export function uniqueStepName(snapshot: WorkflowSnapshot, base: string): string {
  const taken = new Set(snapshot.steps.map((s) => s.name));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base} ${n}`)) return `${base} ${n}`;
}

/** Room a step card takes on the canvas (it is 224 px wide), with a margin. */
const CARD = { w: 260, h: 110 };

/** Below the step it follows (moved right past any step already there, never on top of one),
 *  or to the right of everything else. */
export function nextPosition(snapshot: WorkflowSnapshot, after?: StepState): { x: number; y: number } {
  if (after) {
    const at = { x: after.position.x, y: after.position.y + 120 };
    const taken = (x: number) => snapshot.steps.some((s) => Math.abs(s.position.x - x) < CARD.w && Math.abs(s.position.y - at.y) < CARD.h);
    while (taken(at.x)) at.x += CARD.w + 20;
    return at;
  }
  if (!snapshot.steps.length) return { x: 0, y: 0 };
  return { x: Math.max(...snapshot.steps.map((s) => s.position.x)) + 280, y: 0 };
}

export const defaultsOf = (type: StepTypeDescription) => defaultParams(type);

/**
 * A `file` param must name one of the caller's own files, a `folder` param one of their folders, a
 * `dataset` param one of their datasets:
 * another user's id is refused exactly like a missing one, so a workflow can never be pointed at
 * someone else's data. A file where a folder belongs (or the other way round) gets its own message,
 * and so does a file of a kind the step cannot read (its `accept`, e.g. a .txt for import_csv).
 */
export async function checkOwnedParams(db: Db, userId: string, type: StepTypeDescription, values: Record<string, unknown>): Promise<void> {
  const files = new FileLookupsService(db);
  const problems: Problem[] = [];
  for (const spec of type.params) {
    const value = values[spec.name];
    if ((spec.type !== 'file' && spec.type !== 'folder' && spec.type !== 'dataset') || typeof value !== 'string' || !value.trim() || isReference(value))
      continue;
    const problem = spec.type === 'file' ? await fileProblem(spec, value) : spec.type === 'folder' ? await folderProblem(value) : await datasetProblem(value);
    if (problem) problems.push({ ...problem, loc: ['body', 'param_inputs', spec.name], label: paramLabel(type, spec.name) });
  }
  if (problems.length) throw new ValidationFailed(problems);

  async function fileProblem(spec: ParamSpec, id: string): Promise<Omit<Problem, 'loc'> | null> {
    const file = await files.ownedFile(userId, id);
    if (file) return acceptsFile(spec, file.name) ? null : { key: 'server.params.fileKind', values: { kinds: spec.accept!.join(', ') } };
    return { key: (await files.ownedFolder(userId, id)) ? 'server.params.folderNotFile' : 'server.params.fileNotFound' };
  }

  async function datasetProblem(id: string): Promise<Omit<Problem, 'loc'> | null> {
    const owned = await new DatasetLookupsService(db).ownedIds(userId, [id]);
    return owned.has(id) ? null : { key: 'server.params.datasetNotFound' };
  }

  async function folderProblem(id: string): Promise<Omit<Problem, 'loc'> | null> {
    if (await files.ownedFolder(userId, id)) return null;
    return { key: (await files.ownedFile(userId, id)) ? 'server.params.fileNotFolder' : 'server.params.folderNotFound' };
  }
}
