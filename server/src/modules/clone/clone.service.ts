import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database';
import { notFound } from '../../lib/errors';
import { StepsService } from '../steps/steps.service';
import { uniqueStepName } from '../steps/step-rules';
import { toStepOut } from '../workflows/workflow-views';
import { withNewIds, type StepState, type WorkflowSnapshot } from '../workflows/workflow-state';
import { WorkflowsRepository } from '../workflows/workflows.repository';
import { editorFor, WorkflowsService } from '../workflows/workflows.service';
import type { WorkflowOut } from '../workflows/workflows.schemas';

export class CloneService {
  private readonly repo: WorkflowsRepository;

  constructor(private readonly db: Db) {
    this.repo = new WorkflowsRepository(db);
  }

  /**
   * A copy in the caller's account: of their own workflow as it is now, or of someone else's as it
   * was published (without secret values). Anything else answers 404, as a missing workflow.
   */
  async cloneWorkflow(userId: string, sourceId: string, name: string | undefined, copyOf: (name: string) => string): Promise<WorkflowOut> {
    const source = await this.repo.findById(sourceId);
    let snapshot: WorkflowSnapshot;
    if (source && source.owner_id === userId) snapshot = await this.repo.loadSnapshot(source);
    else if (source && source.visibility === 'published' && source.published_snapshot) snapshot = JSON.parse(source.published_snapshot);
    else throw notFound('server.workflows.notFound');

    const copy = withNewIds(snapshot, randomUUID);
    copy.name = name?.trim() || copyOf(snapshot.name);
    const workflow = await new WorkflowsService(this.db).create(userId, { name: copy.name }, copy, source.id);
    await this.repo.incrementCloneCount(source.id);
    return workflow;
  }

  /** A copy of a step, in its own workflow (same inputs) or another of the caller's (unconnected). */
  async cloneStep(userId: string, stepId: string, targetWorkflowId: string | undefined, name: string | undefined, expectedVersion?: number) {
    const sourceWorkflowId = await new StepsService(this.db).workflowOf(userId, stepId);
    const sourceWorkflow = (await this.repo.findById(sourceWorkflowId))!;
    const original = (await this.repo.loadSnapshot(sourceWorkflow)).steps.find((s) => s.id === stepId)!;
    const workflowId = targetWorkflowId ?? sourceWorkflowId;
    const sameWorkflow = workflowId === sourceWorkflowId;

    const { workflow, result } = await editorFor(this.db).edit(
      { workflowId, userId, expectedVersion },
      (step: StepState) => ({ key: 'server.history.msg.stepCloned', values: { name: step.name } }),
      (draft) => {
        const step: StepState = {
          ...structuredClone(original),
          id: randomUUID(),
          name: name?.trim() || uniqueStepName(draft, original.name),
          inputs: sameWorkflow ? [...original.inputs] : [],
          position: { x: original.position.x + 40, y: original.position.y + 40 },
        };
        draft.steps.push(step);
        return step;
      },
    );
    return { step: toStepOut(workflow.id, result), workflowVersion: workflow.version };
  }
}
