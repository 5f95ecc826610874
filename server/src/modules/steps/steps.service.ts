import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database';
import { RunLookupsService } from '../runs/run-lookups.service';
import { getStepDescription } from '../../engine/step-types';
import type { Language } from '../../i18n/messages';
import { notFound } from '../../lib/errors';
import type { EditContext } from '../workflows/workflow-editor';
import type { StepState, WorkflowSnapshot } from '../workflows/workflow-state';
import { toStepOut } from '../workflows/workflow-views';
import { WorkflowAccessService } from '../workflows/workflow-access.service';
import { editorFor } from '../workflows/workflows.service';
import { checkOwnedParams, checkParams, defaultsOf, nextPosition, stepTypeOrFail, uniqueStepName } from './step-rules';
import type { StepCreateIn, StepOut, StepUpdateIn } from './steps.schemas';
import { StepsRepository } from './steps.repository';

export interface StepResult {
  step: StepOut;
  workflowVersion: number;
}

const findStep = (draft: WorkflowSnapshot, id: string): StepState => {
  const step = draft.steps.find((s) => s.id === id);
  if (!step) throw notFound('server.steps.notFound');
  return step;
};

export class StepsService {
  private readonly steps: StepsRepository;
  private readonly workflows: WorkflowAccessService;
  private readonly editor: ReturnType<typeof editorFor>;

  constructor(private readonly db: Db) {
    this.steps = new StepsRepository(db);
    this.workflows = new WorkflowAccessService(db);
    this.editor = editorFor(db);
  }

  async list(userId: string, workflowId: string): Promise<StepOut[]> {
    const workflow = await this.workflows.ownedWorkflow(workflowId, userId);
    if (!workflow) throw notFound('server.workflows.notFound');
    const snapshot = await this.workflows.stateOf(workflow);
    return snapshot.steps.map((s) => toStepOut(workflow.id, s));
  }

  async get(userId: string, stepId: string): Promise<StepResult> {
    const workflowId = await this.workflowOf(userId, stepId);
    const workflow = (await this.workflows.ownedWorkflow(workflowId, userId))!;
    const snapshot = await this.workflows.stateOf(workflow);
    return { step: toStepOut(workflowId, findStep(snapshot, stepId)), workflowVersion: workflow.version };
  }

  /** A new step of a catalogue type; params start from the type's defaults. Unless given a name,
   *  it is named after its type in the caller's language ("排序" for a Chinese interface). */
  async create(ctx: EditContext, input: Omit<StepCreateIn, 'workflow_id'> & { after_step_id?: string }, language: Language = 'en'): Promise<StepResult> {
    const type = stepTypeOrFail(input.step_type);
    const params = { ...defaultsOf(type), ...(input.param_inputs ?? {}) };
    // Type-checked, not yet complete: a step is added first and filled in after (the run checks
    // required params).
    checkParams(type, params, 'merge');
    const typeName = (language === 'zh-CN' ? type.i18n?.['zh-CN']?.name : undefined) ?? type.name;
    await checkOwnedParams(this.db, ctx.userId, type, params);
    const { workflow, result } = await this.editor.edit(
      ctx,
      (step: StepState) => ({ key: 'server.history.msg.stepAdded', values: { name: step.name } }),
      (draft) => {
        const after = input.after_step_id ? findStep(draft, input.after_step_id) : undefined;
        const step: StepState = {
          id: randomUUID(),
          step_type: type.id,
          name: input.name?.trim() ?? uniqueStepName(draft, typeName),
          param_inputs: params,
          inputs: input.inputs ?? (after && type.inputs.max !== 0 ? [after.id] : []),
          position: input.position ?? nextPosition(draft, after),
        };
        // Added after a step in the middle of a chain: it goes between that step and what read from
        // it (each reader now reads the new step), rather than a parallel branch beside the chain.
        if (after && !input.inputs && step.inputs.length) {
          for (const reader of draft.steps) reader.inputs = reader.inputs.map((id) => (id === after.id ? step.id : id));
        }
        draft.steps.push(step);
        return step;
      },
    );
    return { step: toStepOut(workflow.id, result), workflowVersion: workflow.version };
  }

  async update(userId: string, stepId: string, expectedVersion: number | undefined, patch: StepUpdateIn): Promise<StepResult> {
    const workflowId = await this.workflowOf(userId, stepId);
    return this.updateIn({ workflowId, userId, expectedVersion }, stepId, patch);
  }

  /** `update` on a step of `ctx.workflowId` (also one staged in a batch, not yet written). */
  async updateIn(ctx: EditContext, stepId: string, patch: StepUpdateIn): Promise<StepResult> {
    if (patch.param_inputs) await this.checkOwnedIds(ctx, stepId, patch.param_inputs);
    return this.change(ctx, stepId, 'server.history.msg.stepUpdated', (step) => {
      if (patch.param_inputs !== undefined) checkParams(stepTypeOrFail(step.step_type), patch.param_inputs, 'replace');
      if (patch.name !== undefined) step.name = patch.name.trim();
      if (patch.param_inputs !== undefined) step.param_inputs = patch.param_inputs;
      if (patch.inputs !== undefined) step.inputs = patch.inputs;
      if (patch.position !== undefined) step.position = patch.position;
    });
  }

  /** Replaces every param value (PATCH …/param-inputs). */
  async replaceParams(userId: string, stepId: string, expectedVersion: number | undefined, values: Record<string, unknown>): Promise<StepResult> {
    const workflowId = await this.workflowOf(userId, stepId);
    const ctx = { workflowId, userId, expectedVersion };
    await this.checkOwnedIds(ctx, stepId, values);
    return this.change(ctx, stepId, 'server.history.msg.paramsChanged', (step) => {
      checkParams(stepTypeOrFail(step.step_type), values, 'replace');
      step.param_inputs = values;
    });
  }

  /** Merges the given values into the current ones; a null value removes that param (PATCH …/partial). */
  async mergeParams(userId: string, stepId: string, expectedVersion: number | undefined, values: Record<string, unknown>): Promise<StepResult> {
    const workflowId = await this.workflowOf(userId, stepId);
    return this.mergeParamsIn({ workflowId, userId, expectedVersion }, stepId, values);
  }

  /** `mergeParams` on a step of `ctx.workflowId` (also one staged in a batch). */
  async mergeParamsIn(ctx: EditContext, stepId: string, values: Record<string, unknown>): Promise<StepResult> {
    await this.checkOwnedIds(ctx, stepId, values);
    return this.change(ctx, stepId, 'server.history.msg.paramsChanged', (step) => {
      checkParams(stepTypeOrFail(step.step_type), values, 'merge', step.param_inputs);
      const merged = { ...step.param_inputs };
      for (const [name, value] of Object.entries(values)) {
        if (value === null) delete merged[name];
        else merged[name] = value;
      }
      step.param_inputs = merged;
    });
  }

  /**
   * The dataset a step reads from its `input`-th input: the newest output of that input step. None
   * until that step has run (or when the step has no such input).
   */
  async inputDatasetId(userId: string, stepId: string, input: number): Promise<string> {
    const workflowId = await this.workflowOf(userId, stepId);
    const from = (await this.steps.inputsOf(stepId))[input];
    const last = from ? await new RunLookupsService(this.db).latestOutputOf(workflowId, from) : undefined;
    if (!last?.datasetId) throw notFound('server.steps.noInputDataset');
    return last.datasetId;
  }

  /** The step's own newest output (after it has run): what the editor shows beside the step. */
  async outputDatasetId(userId: string, stepId: string): Promise<string> {
    const workflowId = await this.workflowOf(userId, stepId);
    const last = await new RunLookupsService(this.db).latestOutputOf(workflowId, stepId);
    if (!last?.datasetId) throw notFound('server.steps.noOutputDataset');
    return last.datasetId;
  }

  async workflowOf(userId: string, stepId: string): Promise<string> {
    const workflowId = await this.steps.findWorkflowIdOfOwnedStep(stepId, userId);
    if (!workflowId) throw notFound('server.steps.notFound');
    return workflowId;
  }

  private async checkOwnedIds(ctx: EditContext, stepId: string, values: Record<string, unknown>): Promise<void> {
    const type = ctx.batch ? ctx.batch.draft.steps.find((s) => s.id === stepId)?.step_type : await this.steps.stepTypeOf(stepId);
    const description = type ? getStepDescription(type) : undefined;
    if (description) await checkOwnedParams(this.db, ctx.userId, description, values);
  }

  private async change(ctx: EditContext, stepId: string, messageKey: string, mutate: (step: StepState) => void): Promise<StepResult> {
    const { workflow, snapshot } = await this.editor.edit(
      ctx,
      (name: string) => ({ key: messageKey, values: { name } }),
      (draft) => {
        const step = findStep(draft, stepId);
        mutate(step);
        return step.name;
      },
    );
    const step = findStep(snapshot, stepId);
    return { step: toStepOut(workflow.id, step), workflowVersion: workflow.version };
  }
}
