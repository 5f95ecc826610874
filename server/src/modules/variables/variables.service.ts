import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database';
import { notFound, ValidationFailed } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import type { EditContext } from '../workflows/workflow-editor';
import type { VariableState, VariableType, WorkflowSnapshot } from '../workflows/workflow-state';
import { toVariableOut } from '../workflows/workflow-views';
import { WorkflowAccessService } from '../workflows/workflow-access.service';
import { editorFor } from '../workflows/workflows.service';
import { previewableInputs, stepColumns } from '../runs/step-columns';
import { RECORD_ID } from '../../engine/datasets';
import type { VariableCreateIn, VariableOut, VariableUpdateIn } from './variables.schemas';

export interface VariableResult {
  variable: VariableOut;
  workflowVersion: number;
}

const fitsType: Record<VariableType, (value: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  json: (v) => v !== undefined,
  secret: (v) => typeof v === 'string' && v.length > 0,
};

const findVariable = (draft: WorkflowSnapshot, id: string): VariableState => {
  const variable = draft.variables.find((v) => v.id === id);
  if (!variable) throw notFound('server.variables.notFound');
  return variable;
};

export class VariablesService {
  private readonly workflows: WorkflowAccessService;
  private readonly editor: ReturnType<typeof editorFor>;

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
  ) {
    this.workflows = new WorkflowAccessService(db);
    this.editor = editorFor(db);
  }

  async list(userId: string, workflowId: string): Promise<VariableOut[]> {
    return (await this.snapshotOf(userId, workflowId)).variables.map((v) => toVariableOut(workflowId, v));
  }

  async get(userId: string, workflowId: string, id: string): Promise<VariableOut> {
    return toVariableOut(workflowId, findVariable(await this.snapshotOf(userId, workflowId), id));
  }

  async create(ctx: EditContext, input: VariableCreateIn): Promise<VariableResult> {
    const { workflow, result } = await this.editor.edit(ctx, { key: 'server.history.msg.variableAdded', values: { name: input.name } }, (draft) => {
      this.checkNameFree(draft, input.name);
      const variable: VariableState = {
        id: randomUUID(),
        name: input.name,
        type: input.type,
        description: input.description ?? '',
        value: this.encode(input.type, input.value),
      };
      draft.variables.push(variable);
      return variable;
    });
    return { variable: toVariableOut(workflow.id, result), workflowVersion: workflow.version };
  }

  /** A new type without a new value clears the value (a secret must never turn into plain text). */
  async update(ctx: EditContext, id: string, patch: VariableUpdateIn): Promise<VariableResult> {
    const { workflow, result } = await this.editor.edit(
      ctx,
      (v: VariableState) => ({ key: 'server.history.msg.variableUpdated', values: { name: v.name } }),
      (draft) => {
        const variable = findVariable(draft, id);
        if (patch.name !== undefined && patch.name !== variable.name) this.checkNameFree(draft, patch.name);
        const typeChanged = patch.type !== undefined && patch.type !== variable.type;
        if (patch.name !== undefined) variable.name = patch.name;
        if (patch.type !== undefined) variable.type = patch.type;
        if (patch.description !== undefined) variable.description = patch.description;
        if (patch.value !== undefined) variable.value = this.encode(variable.type, patch.value);
        else if (typeChanged) variable.value = null;
        return variable;
      },
    );
    return { variable: toVariableOut(workflow.id, result), workflowVersion: workflow.version };
  }

  async delete(ctx: EditContext, id: string): Promise<number> {
    const { workflow } = await this.editor.edit(
      ctx,
      (name: string) => ({ key: 'server.history.msg.variableDeleted', values: { name } }),
      (draft) => {
        const variable = findVariable(draft, id);
        draft.variables = draft.variables.filter((v) => v.id !== id);
        return variable.name;
      },
    );
    return workflow.version;
  }

  /**
   * What a step's params may reference: the workflow's variables, and the columns of its inputs
   * with their types (`runs/step-columns.ts`: derived by the input steps' runners, else their last
   * run's); an input whose columns only a run can tell (a source not yet run) adds a note saying so,
   * and is named in `preview_step_ids` when a preview may run it unasked (previewableInputs).
   */
  async variableFields(userId: string, workflowId: string, stepId: string) {
    const snapshot = await this.snapshotOf(userId, workflowId);
    const step = snapshot.steps.find((s) => s.id === stepId);
    if (!step) throw notFound('server.steps.notFound');
    // Plain values only: a secret never takes part in working out columns.
    const vars = Object.fromEntries(snapshot.variables.filter((v) => v.type !== 'secret' && v.value !== null).map((v) => [v.name, JSON.parse(v.value!)]));
    const columns = await stepColumns(this.db, userId, workflowId, snapshot.steps, vars);
    // Each input's columns, in input order: a join's two sides may both have an `id`, and the
    // picker of its right-hand keys lists the second input's.
    const fields: { name: string; type: string; reference: string; from_step_id: string; input_index: number }[] = [];
    step.inputs.forEach((input, index) => {
      for (const c of columns.get(input) ?? []) {
        if (c.name === RECORD_ID || fields.some((f) => f.input_index === index && f.name === c.name)) continue;
        fields.push({ name: c.name, type: c.type, reference: `{{field.${c.name}}}`, from_step_id: input, input_index: index });
      }
    });
    const unknown = step.inputs.some((i) => !columns.get(i));
    return {
      variables: snapshot.variables.map((v) => ({ name: v.name, type: v.type, reference: `{{var.${v.name}}}` })),
      fields,
      notes: !step.inputs.length ? ['server.variables.noInputs'] : unknown ? ['server.variables.fieldsAfterRun'] : [],
      preview_step_ids: previewableInputs(step, snapshot.steps, columns),
    };
  }

  private encode(type: VariableType, value: unknown): string | null {
    if (value === undefined || value === null) return null;
    if (!fitsType[type](value)) {
      throw new ValidationFailed([{ key: 'server.variables.valueType', values: { type }, loc: ['body', 'value'] }]);
    }
    return type === 'secret' ? this.secrets.seal(value as string) : JSON.stringify(value);
  }

  private checkNameFree(draft: WorkflowSnapshot, name: string) {
    if (draft.variables.some((v) => v.name === name)) {
      throw new ValidationFailed([{ key: 'server.variables.nameTaken', values: { name }, loc: ['body', 'name'] }]);
    }
  }

  private async snapshotOf(userId: string, workflowId: string): Promise<WorkflowSnapshot> {
    const workflow = await this.workflows.ownedWorkflow(workflowId, userId);
    if (!workflow) throw notFound('server.workflows.notFound');
    return this.workflows.stateOf(workflow);
  }
}
