import type { Db } from '../../db/database';
import type { WorkflowCommitsTable, WorkflowUndoEntriesTable } from '../../db/schema';
import { applyDelta, type SnapshotDelta } from './workflow-delta';
import type { WorkflowSnapshot } from './workflow-state';

export type CommitRow = WorkflowCommitsTable;
export type Stack = WorkflowUndoEntriesTable['stack'];

/** What undo/redo and merging need of a commit: everything but its stored state. */
export type CommitHead = Omit<CommitRow, 'checkpoint' | 'delta'>;

export interface UndoAvailability {
  can_undo: boolean;
  can_redo: boolean;
}

const headColumns = [
  'workflow_commits.id',
  'workflow_commits.workflow_id',
  'workflow_commits.seq',
  'workflow_commits.author_id',
  'workflow_commits.kind',
  'workflow_commits.message',
  'workflow_commits.changes',
  'workflow_commits.depth',
  'workflow_commits.created_at',
] as const;

/** The history's queries: commits, the states they hold, and the undo/redo stacks. */
export class CommitsRepository {
  constructor(private readonly db: Db) {}

  async insert(row: CommitRow): Promise<void> {
    await this.db.insertInto('workflow_commits').values(row).execute();
  }

  async update(id: string, fields: Partial<CommitRow>): Promise<void> {
    await this.db.updateTable('workflow_commits').set(fields).where('id', '=', id).execute();
  }

  find(id: string): Promise<CommitHead | undefined> {
    return this.db.selectFrom('workflow_commits').select(headColumns).where('id', '=', id).executeTakeFirst();
  }

  /** The workflow's newest commit, with its delta (a merge of canvas moves extends it). */
  newest(workflowId: string): Promise<(CommitHead & { delta: string | null }) | undefined> {
    return this.db
      .selectFrom('workflow_commits')
      .select([...headColumns, 'workflow_commits.delta'])
      .where('workflow_id', '=', workflowId)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** The commit just before `seq`: the state after it is the state that commit started from. */
  before(workflowId: string, seq: number): Promise<CommitHead | undefined> {
    return this.db
      .selectFrom('workflow_commits')
      .select(headColumns)
      .where('workflow_id', '=', workflowId)
      .where('seq', '<', seq)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** A commit with its author's name, if the commit's workflow belongs to `ownerId`. */
  findOwned(id: string, ownerId: string): Promise<(CommitHead & { author_name: string | null }) | undefined> {
    return this.db
      .selectFrom('workflow_commits')
      .innerJoin('workflows', 'workflows.id', 'workflow_commits.workflow_id')
      .leftJoin('users', 'users.id', 'workflow_commits.author_id')
      .select([...headColumns, 'users.name as author_name'])
      .where('workflow_commits.id', '=', id)
      .where('workflows.owner_id', '=', ownerId)
      .executeTakeFirst();
  }

  async list(workflowId: string, limit: number, offset: number) {
    const { total } = await this.db
      .selectFrom('workflow_commits')
      .where('workflow_id', '=', workflowId)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    const rows = await this.db
      .selectFrom('workflow_commits')
      .leftJoin('users', 'users.id', 'workflow_commits.author_id')
      .select([...headColumns, 'users.name as author_name'])
      .where('workflow_commits.workflow_id', '=', workflowId)
      .orderBy('workflow_commits.seq', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return { rows, total: Number(total) };
  }

  /**
   * The workflow as it was after commit `commitId` (secret values left out): its nearest checkpoint
   * with the deltas up to the commit applied. One statement, so a commit merged meanwhile cannot
   * shift the range under it.
   */
  async stateAfter(workflowId: string, commitId: string): Promise<WorkflowSnapshot> {
    const rows = await this.db
      .selectFrom('workflow_commits as c')
      .select(['c.seq', 'c.checkpoint', 'c.delta'])
      .where('c.workflow_id', '=', workflowId)
      .where('c.seq', '<=', (eb) => eb.selectFrom('workflow_commits as target').select('target.seq').where('target.id', '=', commitId))
      .where('c.seq', '>=', (eb) =>
        eb
          .selectFrom('workflow_commits as cp')
          .select('cp.seq')
          .where('cp.workflow_id', '=', workflowId)
          .where('cp.checkpoint', 'is not', null)
          .where('cp.seq', '<=', (inner) => inner.selectFrom('workflow_commits as target').select('target.seq').where('target.id', '=', commitId))
          // Walks back from the commit along the (workflow_id, seq) index: at most checkpointEvery rows.
          .orderBy('cp.seq', 'desc')
          .limit(1),
      )
      .orderBy('c.seq')
      .execute();
    if (!rows.length || rows[0].checkpoint === null) throw new Error(`History of workflow ${workflowId} has no checkpoint before commit ${commitId}`);
    let state = JSON.parse(rows[0].checkpoint) as WorkflowSnapshot;
    for (const row of rows.slice(1)) state = applyDelta(state, JSON.parse(row.delta!) as SnapshotDelta);
    return state;
  }

  // ---- the undo and redo stacks ----

  /** The commit on top of a stack. */
  top(workflowId: string, stack: Stack): Promise<CommitHead | undefined> {
    return this.db
      .selectFrom('workflow_undo_entries as e')
      .innerJoin('workflow_commits', 'workflow_commits.id', 'e.commit_id')
      .select(headColumns)
      .where('e.workflow_id', '=', workflowId)
      .where('e.stack', '=', stack)
      .orderBy('e.position', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Puts a commit on top of a stack, taking it off the other one if it was there. */
  async putOnTop(workflowId: string, commitId: string, stack: Stack, position: number): Promise<void> {
    await this.db
      .insertInto('workflow_undo_entries')
      .values({ commit_id: commitId, workflow_id: workflowId, stack, position })
      .onConflict((oc) => oc.column('commit_id').doUpdateSet({ stack, position }))
      .execute();
  }

  async clear(workflowId: string, stack: Stack): Promise<void> {
    await this.db.deleteFrom('workflow_undo_entries').where('workflow_id', '=', workflowId).where('stack', '=', stack).execute();
  }

  /** Drops the oldest entries beyond the newest `keep`. */
  async trim(workflowId: string, stack: Stack, keep: number): Promise<void> {
    await this.db
      .deleteFrom('workflow_undo_entries')
      .where('workflow_id', '=', workflowId)
      .where('stack', '=', stack)
      .where('position', '<=', (eb) =>
        eb
          .selectFrom('workflow_undo_entries as newer')
          .select('newer.position')
          .where('newer.workflow_id', '=', workflowId)
          .where('newer.stack', '=', stack)
          .orderBy('newer.position', 'desc')
          .limit(1)
          .offset(keep),
      )
      .execute();
  }

  async isEmpty(workflowId: string, stack: Stack): Promise<boolean> {
    const entry = await this.db
      .selectFrom('workflow_undo_entries')
      .select('commit_id')
      .where('workflow_id', '=', workflowId)
      .where('stack', '=', stack)
      .limit(1)
      .executeTakeFirst();
    return entry === undefined;
  }

  async availability(workflowId: string): Promise<UndoAvailability> {
    const [undo, redo] = await Promise.all([this.isEmpty(workflowId, 'undo'), this.isEmpty(workflowId, 'redo')]);
    return { can_undo: !undo, can_redo: !redo };
  }
}
