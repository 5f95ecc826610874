import type { Db } from '../../db/database';

export class StepsRepository {
  constructor(private readonly db: Db) {}

  /** The workflow a step belongs to, if the caller owns it: ids of others' steps reveal nothing. */
  async findWorkflowIdOfOwnedStep(stepId: string, userId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('workflow_steps')
      .innerJoin('workflows', 'workflows.id', 'workflow_steps.workflow_id')
      .select('workflow_steps.workflow_id')
      .where('workflow_steps.id', '=', stepId)
      .where('workflows.owner_id', '=', userId)
      .executeTakeFirst();
    return row?.workflow_id;
  }

  async stepTypeOf(stepId: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('workflow_steps').select('step_type').where('id', '=', stepId).executeTakeFirst();
    return row?.step_type;
  }

  /** The ids of the steps this one reads from, in order. */
  async inputsOf(stepId: string): Promise<string[]> {
    const row = await this.db.selectFrom('workflow_steps').select('inputs').where('id', '=', stepId).executeTakeFirst();
    return row ? (JSON.parse(row.inputs) as string[]) : [];
  }
}
