import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { precompile } from '../../db/precompiled';
import { containsPattern } from '../../db/text-match';
import type { WorkflowsTable } from '../../db/schema';
import type { Change, StepState, VariableState, WorkflowSnapshot } from './workflow-state';

export type WorkflowRow = WorkflowsTable;

/** The columns a list of workflows shows (not the published copy, which can be large). */
const summaryColumns = [
  'workflows.id',
  'workflows.name',
  'workflows.description',
  'workflows.tags',
  'workflows.visibility',
  'workflows.version',
  'workflows.clone_count',
  'workflows.cloned_from_id',
  'workflows.published_at',
  'workflows.created_at',
  'workflows.updated_at',
] as const;
export type WorkflowSummaryRow = Pick<
  WorkflowRow,
  'id' | 'name' | 'description' | 'tags' | 'visibility' | 'version' | 'clone_count' | 'cloned_from_id' | 'published_at' | 'created_at' | 'updated_at'
>;

/** `lower(column) LIKE pattern` (a containsPattern), on both databases. */
const matches = (column: string, pattern: string) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
const containsText = (column: string, text: string) => matches(column, containsPattern(text));

type ListValues = 'ownerId' | 'pattern' | 'limit' | 'offset';

export interface WorkflowListQuery {
  q?: string;
  sort: 'updated_at' | 'created_at' | 'name';
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** The two queries of one kind of list page (see WorkflowsRepository.list), compiled on first use. */
function listQueries(db: Db, sort: WorkflowListQuery['sort'], order: WorkflowListQuery['order'], search: boolean) {
  const filtered = (q: Db, v: Record<ListValues, string>) => {
    const base = q.selectFrom('workflows').where('owner_id', '=', v.ownerId);
    return search ? base.where((eb) => eb.or([matches('name', v.pattern), matches('description', v.pattern), matches('tags', v.pattern)])) : base;
  };
  return {
    count: precompile(db, search ? ['ownerId', 'pattern'] : ['ownerId'], (q, v: Record<ListValues, string>) =>
      filtered(q, v).select((eb) => eb.fn.countAll<number>().as('total')),
    ),
    page: precompile(db, search ? ['ownerId', 'pattern', 'limit', 'offset'] : ['ownerId', 'limit', 'offset'], (q, v: Record<ListValues, string>) =>
      filtered(q, v)
        .select(summaryColumns)
        .select((eb) =>
          eb.selectFrom('workflow_steps').whereRef('workflow_steps.workflow_id', '=', 'workflows.id').select(eb.fn.countAll<number>().as('n')).as('step_count'),
        )
        .orderBy(sort === 'name' ? sql`lower(name)` : sort, order)
        .orderBy('id')
        // Placeholders for the numbers: precompile puts each call's values in their places.
        .limit(v.limit as unknown as number)
        .offset(v.offset as unknown as number),
    ),
  };
}

/** Rows ⇄ WorkflowSnapshot, and the queries of the Workflows area (the history's are in CommitsRepository). */
export class WorkflowsRepository {
  constructor(private readonly db: Db) {}

  findOwned(id: string, ownerId: string): Promise<WorkflowRow | undefined> {
    return this.db.selectFrom('workflows').selectAll().where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
  }

  /** Names of the owner's workflows among `ids`, in one query (another owner's ids are absent). */
  async namesOf(ids: readonly string[], ownerId: string): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await this.db.selectFrom('workflows').select(['id', 'name']).where('owner_id', '=', ownerId).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /**
   * Takes the workflow's row lock for the rest of the transaction (a no-op write works on both
   * databases, where SELECT … FOR UPDATE does not), so concurrent edits of one workflow queue up
   * instead of colliding. False when the caller does not own such a workflow.
   */
  async lockOwned(id: string, ownerId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('workflows')
      .set((eb) => ({ version: eb.ref('version') }))
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  findById(id: string): Promise<WorkflowRow | undefined> {
    return this.db.selectFrom('workflows').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insert(row: WorkflowRow): Promise<void> {
    await this.db.insertInto('workflows').values(row).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('workflows').where('id', '=', id).execute();
  }

  /**
   * One page of the owner's workflows. The list is asked for on every visit of the home page, so its
   * queries are compiled once per sort, order and "searching or not"; the total is counted only
   * when the page does not tell it (a full page, or an empty page past the first).
   */
  async list(ownerId: string, query: WorkflowListQuery): Promise<{ rows: (WorkflowSummaryRow & { step_count: number })[]; total: number }> {
    const queries = this.listQueries(query.sort, query.order, Boolean(query.q));
    const values = { ownerId, pattern: query.q ? containsPattern(query.q) : '', limit: query.limit, offset: query.offset };
    const rows = await queries.page(values);
    const total = rows.length > 0 && rows.length < query.limit ? query.offset + rows.length : Number((await queries.count(values))[0].total);
    return { rows: rows.map((r) => ({ ...r, step_count: Number(r.step_count) })), total };
  }

  private listQueries(sort: WorkflowListQuery['sort'], order: WorkflowListQuery['order'], search: boolean) {
    const key = `${sort} ${order} ${search}`;
    let queries = this.listQueryCache.get(key);
    if (!queries) this.listQueryCache.set(key, (queries = listQueries(this.db, sort, order, search)));
    return queries;
  }

  private readonly listQueryCache = new Map<string, ReturnType<typeof listQueries>>();

  async listPublished(query: { q?: string; limit: number; offset: number }) {
    let base = this.db.selectFrom('workflows').innerJoin('users', 'users.id', 'workflows.owner_id').where('workflows.visibility', '=', 'published');
    if (query.q) {
      const q = query.q;
      base = base.where((eb) =>
        eb.or([containsText('workflows.published_name', q), containsText('workflows.published_description', q), containsText('workflows.published_tags', q)]),
      );
    }
    const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await base
      .select(['workflows.id', 'workflows.published_snapshot', 'workflows.published_at', 'workflows.clone_count', 'users.name as author_name'])
      .orderBy('workflows.published_at', 'desc')
      .orderBy('workflows.id')
      .limit(query.limit)
      .offset(query.offset)
      .execute();
    return { rows, total: Number(total) };
  }

  /** One workflow of the gallery, only while it is published: its copy, its author's name, its counts. */
  findPublished(id: string) {
    return this.db
      .selectFrom('workflows')
      .innerJoin('users', 'users.id', 'workflows.owner_id')
      .where('workflows.id', '=', id)
      .where('workflows.visibility', '=', 'published')
      .where('workflows.published_snapshot', 'is not', null)
      .select(['workflows.id', 'workflows.published_snapshot', 'workflows.published_at', 'workflows.clone_count', 'users.name as author_name'])
      .executeTakeFirst();
  }

  async loadSnapshot(workflow: WorkflowRow): Promise<WorkflowSnapshot> {
    const [steps, variables] = await Promise.all([
      this.db.selectFrom('workflow_steps').selectAll().where('workflow_id', '=', workflow.id).orderBy('created_at').orderBy('id').execute(),
      this.db.selectFrom('workflow_variables').selectAll().where('workflow_id', '=', workflow.id).orderBy('name').execute(),
    ]);
    return {
      name: workflow.name,
      description: workflow.description,
      tags: JSON.parse(workflow.tags),
      steps: steps.map((s): StepState => ({
        id: s.id,
        step_type: s.step_type,
        name: s.name,
        param_inputs: JSON.parse(s.param_inputs),
        inputs: JSON.parse(s.inputs),
        position: { x: Number(s.position_x), y: Number(s.position_y) },
      })),
      variables: variables.map((v): VariableState => ({ id: v.id, name: v.name, type: v.type, description: v.description, value: v.value })),
    };
  }

  /** The stored (sealed) values of a workflow's variables by name: a run opens its secrets when a step runs. */
  secretValues(workflowId: string, names: readonly string[]): Promise<{ name: string; value: string | null }[]> {
    if (!names.length) return Promise.resolve([]);
    return this.db.selectFrom('workflow_variables').select(['name', 'value']).where('workflow_id', '=', workflowId).where('name', 'in', names).execute();
  }

  /** Writes only the rows that differ between two states. Call inside a transaction. */
  async saveChanges(workflowId: string, after: WorkflowSnapshot, changes: Change[], now: string): Promise<void> {
    const steps = new Map(after.steps.map((s) => [s.id, s]));
    const variables = new Map(after.variables.map((v) => [v.id, v]));
    const stepRow = (s: StepState) => ({
      step_type: s.step_type,
      name: s.name,
      param_inputs: JSON.stringify(s.param_inputs),
      inputs: JSON.stringify(s.inputs),
      position_x: s.position.x,
      position_y: s.position.y,
      updated_at: now,
    });
    const variableRow = (v: VariableState) => ({ name: v.name, type: v.type, description: v.description, value: v.value, updated_at: now });

    // Deletes first: a variable renamed into a name another one gave up must not hit the unique index.
    for (const c of changes.filter((c) => c.op === 'delete')) {
      if (c.entity === 'step') await this.db.deleteFrom('workflow_steps').where('id', '=', c.id).execute();
      if (c.entity === 'variable') await this.db.deleteFrom('workflow_variables').where('id', '=', c.id).execute();
    }
    for (const c of changes.filter((c) => c.op !== 'delete')) {
      if (c.entity === 'step') {
        const s = steps.get(c.id)!;
        if (c.op === 'create')
          await this.db
            .insertInto('workflow_steps')
            .values({ id: s.id, workflow_id: workflowId, created_at: now, ...stepRow(s) })
            .execute();
        else await this.db.updateTable('workflow_steps').set(stepRow(s)).where('id', '=', c.id).execute();
      } else if (c.entity === 'variable') {
        const v = variables.get(c.id)!;
        if (c.op === 'create')
          await this.db
            .insertInto('workflow_variables')
            .values({ id: v.id, workflow_id: workflowId, created_at: now, ...variableRow(v) })
            .execute();
        else await this.db.updateTable('workflow_variables').set(variableRow(v)).where('id', '=', c.id).execute();
      }
    }
  }

  /**
   * Moves the workflow to its next version, only if it is still at `version`: the guard that turns
   * a concurrent edit into a conflict instead of a lost update.
   */
  async advance(id: string, version: number, fields: Partial<WorkflowRow>): Promise<boolean> {
    const result = await this.db
      .updateTable('workflows')
      .set({ ...fields, version: version + 1 })
      .where('id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async update(id: string, fields: Partial<WorkflowRow>): Promise<void> {
    await this.db.updateTable('workflows').set(fields).where('id', '=', id).execute();
  }

  async incrementCloneCount(id: string): Promise<void> {
    await this.db
      .updateTable('workflows')
      .set((eb) => ({ clone_count: eb('clone_count', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }
}
