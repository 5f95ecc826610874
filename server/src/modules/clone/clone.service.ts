import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database';
import { notFound } from '../../lib/errors';
import { DatasetLookupsService } from '../datasets/dataset-lookups.service';
import { FileLookupsService } from '../files/file-lookups.service';
import { StepsService } from '../steps/steps.service';
import { uniqueStepName } from '../steps/step-rules';
import { toStepOut, withoutSecrets } from '../workflows/workflow-views';
import { withNewIds, type StepState, type WorkflowSnapshot } from '../workflows/workflow-state';
import { WorkflowAccessService } from '../workflows/workflow-access.service';
import { editorFor, WorkflowsService } from '../workflows/workflows.service';
import type { WorkflowOut } from '../workflows/workflows.schemas';
import { candidateIds, withoutForeignReferences, type Dropped, type OwnedIds } from './foreign-references';
import { cloneJson } from '../../lib/json-values';

export class CloneService {
  private readonly workflows: WorkflowAccessService;

  constructor(private readonly db: Db) {
    this.workflows = new WorkflowAccessService(db);
  }

  /**
   * A copy in the caller's account: of their own workflow as it is now, or of someone else's as it
   * was published (without secret values, and without the files, folders and datasets of its
   * author, which `dropped` lists so the caller can say what needs setting again). Anything else
   * answers 404, as a missing workflow.
   */
  async cloneWorkflow(
    userId: string,
    sourceId: string,
    name: string | undefined,
    copyOf: (name: string) => string,
  ): Promise<{ workflow: WorkflowOut; dropped: Dropped }> {
    const source = await this.workflows.workflowById(sourceId);
    let snapshot: WorkflowSnapshot;
    let dropped: Dropped = { steps: [], variables: [] };
    if (source && source.owner_id === userId) snapshot = await this.workflows.stateOf(source);
    else if (source && source.visibility === 'published' && source.published_snapshot) {
      // A copy published before secret params were left out may still hold one: never hand it on.
      const published = withoutSecrets(JSON.parse(source.published_snapshot) as WorkflowSnapshot);
      ({ snapshot, dropped } = withoutForeignReferences(published, await this.ownedAmong(userId, candidateIds(published))));
    } else throw notFound('server.workflows.notFound');

    const copy = withNewIds(snapshot, randomUUID);
    copy.name = name?.trim() || copyOf(snapshot.name);
    const workflow = await new WorkflowsService(this.db).create(userId, { name: copy.name }, copy, source.id);
    await this.workflows.countClone(source.id);
    return { workflow, dropped };
  }

  /** Which of these ids name the user's own files, folders and datasets. */
  private async ownedAmong(userId: string, ids: ReturnType<typeof candidateIds>): Promise<OwnedIds> {
    const files = new FileLookupsService(this.db);
    const [file, folder, dataset] = await Promise.all([
      files.ownedFileIds(userId, ids.file),
      files.ownedFolderIds(userId, ids.folder),
      new DatasetLookupsService(this.db).ownedIds(userId, ids.dataset),
    ]);
    return { file, folder, dataset };
  }

  /**
   * A copy of a step, in its own workflow (same inputs) or another of the caller's (unconnected).
   * Both workflows are the caller's (`workflowOf` and the editor check it), so the params, file
   * and dataset ids included, are the caller's own and are kept as they are.
   */
  async cloneStep(userId: string, stepId: string, targetWorkflowId: string | undefined, name: string | undefined, expectedVersion?: number) {
    const sourceWorkflowId = await new StepsService(this.db).workflowOf(userId, stepId);
    const sourceWorkflow = (await this.workflows.workflowById(sourceWorkflowId))!;
    const original = (await this.workflows.stateOf(sourceWorkflow)).steps.find((s) => s.id === stepId)!;
    const workflowId = targetWorkflowId ?? sourceWorkflowId;
    const sameWorkflow = workflowId === sourceWorkflowId;

    const { workflow, result } = await editorFor(this.db).edit(
      { workflowId, userId, expectedVersion },
      (step: StepState) => ({ key: 'server.history.msg.stepCloned', values: { name: step.name } }),
      (draft) => {
        const step: StepState = {
          ...cloneJson(original),
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
