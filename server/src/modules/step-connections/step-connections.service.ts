import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database';
import { defaultParams } from '../../engine/params';
import { stepDescriptions } from '../../engine/step-types';
import { notFound, ValidationFailed } from '../../lib/errors';
import { nextPosition, uniqueStepName } from '../steps/step-rules';
import { StepOverridesService } from '../step-infos/step-overrides.service';
import type { EditContext } from '../workflows/workflow-editor';
import type { StepState } from '../workflows/workflow-state';
import { toStepOut } from '../workflows/workflow-views';
import { editorFor } from '../workflows/workflows.service';

export interface Rewiring {
  step_id: string;
  inputs: string[];
}

/** Graph surgery on many steps at once: inserting a chain, removing a set and healing the gaps. */
export class StepConnectionsService {
  private readonly editor: ReturnType<typeof editorFor>;
  private readonly stepInfos: StepOverridesService;

  constructor(db: Db) {
    this.editor = editorFor(db);
    this.stepInfos = new StepOverridesService(db);
  }

  /**
   * Inserts the catalogue's step types that carry every given tag, chained in catalogue order after
   * `afterStepId` (or unconnected), and moves the steps that read from it onto the end of the chain.
   */
  async insertByTags(ctx: EditContext, tags: string[], afterStepId?: string, position?: { x: number; y: number }) {
    const wanted = tags.map((t) => t.toLowerCase());
    // The tags as people see them in the catalogue: with admins' overrides applied.
    const overrides = await this.stepInfos.overrides();
    const tagsOf = (type: (typeof stepDescriptions)[number]) => (overrides.get(type.id)?.tags ?? type.tags).map((t) => t.toLowerCase());
    const types = stepDescriptions.filter((type) => wanted.every((tag) => tagsOf(type).includes(tag)));
    if (!types.length) throw new ValidationFailed([{ key: 'server.connections.noTypeForTags', values: { tags: tags.join(', ') }, loc: ['body', 'tags'] }]);

    const { workflow, result } = await this.editor.edit(
      ctx,
      (inserted: StepState[]) => ({ key: 'server.history.msg.stepsInserted', values: { names: inserted.map((s) => s.name).join(', ') } }),
      (draft) => {
        const after = afterStepId ? draft.steps.find((s) => s.id === afterStepId) : undefined;
        if (afterStepId && !after) throw notFound('server.steps.notFound');
        const consumers = after ? draft.steps.filter((s) => s.inputs.includes(after.id)) : [];
        const start = position ?? nextPosition(draft, after);
        const inserted: StepState[] = [];
        let previous = after;
        types.forEach((type, i) => {
          const step: StepState = {
            id: randomUUID(),
            step_type: type.id,
            name: uniqueStepName(draft, type.name),
            param_inputs: defaultParams(type),
            inputs: previous && type.inputs.max !== 0 ? [previous.id] : [],
            position: { x: start.x, y: start.y + i * 120 },
          };
          draft.steps.push(step);
          inserted.push(step);
          if (type.inputs.max !== 0) previous = step;
        });
        const last = inserted[inserted.length - 1];
        if (after && previous !== after && previous === last) {
          for (const consumer of consumers) consumer.inputs = consumer.inputs.map((id) => (id === after.id ? last.id : id));
        }
        return inserted;
      },
    );
    return { steps: result.map((s) => toStepOut(workflow.id, s)), workflowVersion: workflow.version };
  }

  /**
   * Removes steps. A step that read from a removed one reads from what that one read instead (so
   * deleting the middle of a chain keeps it joined) when its type takes that many inputs; otherwise
   * the link is dropped and reported.
   */
  async deleteBatch(ctx: EditContext, stepIds: string[], limitsOf: (type: string) => { max: number | null } | null) {
    const { workflow, result } = await this.editor.edit(
      ctx,
      (r: { deleted: string[] }) => ({ key: 'server.history.msg.stepsDeleted', values: { count: r.deleted.length } }),
      (draft) => {
        const removed = new Set(stepIds);
        const missing = stepIds.filter((id) => !draft.steps.some((s) => s.id === id));
        if (missing.length) throw notFound('server.steps.notFound');
        const byId = new Map(draft.steps.map((s) => [s.id, s]));
        // What a removed step stands for: its own inputs, through any removed ones.
        const resolve = (id: string, seen = new Set<string>()): string[] => {
          if (!removed.has(id)) return [id];
          if (seen.has(id)) return [];
          seen.add(id);
          return byId.get(id)!.inputs.flatMap((input) => resolve(input, seen));
        };
        const rewired: Rewiring[] = [];
        const lost: { step: string; removed: string }[] = [];
        const survivors = draft.steps.filter((s) => !removed.has(s.id));
        for (const step of survivors) {
          if (!step.inputs.some((id) => removed.has(id))) continue;
          const max = limitsOf(step.step_type)?.max ?? null;
          const next: string[] = [];
          for (const input of step.inputs) {
            const replacement = removed.has(input) ? resolve(input) : [input];
            for (const candidate of replacement) {
              if (next.includes(candidate)) continue;
              if (max !== null && next.length >= max) {
                lost.push({ step: step.name, removed: byId.get(input)!.name });
                continue;
              }
              next.push(candidate);
            }
            if (removed.has(input) && replacement.length === 0) lost.push({ step: step.name, removed: byId.get(input)!.name });
          }
          step.inputs = next;
          rewired.push({ step_id: step.id, inputs: next });
        }
        draft.steps = survivors;
        return { deleted: stepIds, rewired, lost };
      },
    );
    return { ...result, workflowVersion: workflow.version };
  }
}
