import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database';
import { conflict, notFound, ValidationFailed, type Problem } from '../../lib/errors';
import { diffSnapshots, graphProblems, type InputLimits, type WorkflowSnapshot } from './workflow-state';
import { WorkflowsRepository, type CommitRow, type WorkflowRow } from './workflows.repository';

/** A commit's message as a catalog key, rendered in each reader's language. */
export interface CommitMessage {
  key: string;
  values?: Record<string, string | number>;
  /** Undo, redo and restore name the commit they act on. */
  of?: CommitMessage;
}

export interface EditContext {
  workflowId: string;
  userId: string;
  /** The version the client based its change on (If-Match); a different current version → 409. */
  expectedVersion?: number;
}

export interface EditResult<T> {
  workflow: WorkflowRow;
  snapshot: WorkflowSnapshot;
  /** Null when the edit changed nothing (no commit is written). */
  commit: CommitRow | null;
  result: T;
}

/** What an edit does to the draft state; may answer a value (e.g. the id of a created step). */
export type Mutation<T> = (draft: WorkflowSnapshot, workflow: WorkflowRow) => T;

const parseStack = (text: string): string[] => JSON.parse(text) as string[];

/**
 * The one way a workflow changes (ARCHITECTURE.md decision 8). An edit loads the workflow's state,
 * applies a pure mutation to a copy, checks the graph rules, writes the rows that differ and appends
 * a commit holding the new state, all in one transaction. The workflow's version guards the write:
 * a stale If-Match answers 409; a race between two unversioned edits retries the loser.
 *
 * Undo and redo walk the commits of ordinary edits: undo brings back the state before the newest
 * undoable commit, redo the state after it; both are commits themselves, so the history shows them.
 * A new edit empties the redo stack. Restore brings back any commit's state as a new edit.
 */
export class WorkflowEditor {
  constructor(
    private readonly db: Db,
    private readonly limitsOf: (stepType: string) => InputLimits | null,
  ) {}

  /** `message` may be computed from the result, e.g. to name the step just changed. */
  async edit<T>(ctx: EditContext, message: CommitMessage | ((result: T) => CommitMessage), mutate: Mutation<T>): Promise<EditResult<T>> {
    return this.withRetry(ctx, (_repo, workflow, before) => {
      const draft = structuredClone(before);
      const result = mutate(draft, workflow);
      return {
        after: draft,
        kind: 'edit' as const,
        message: typeof message === 'function' ? message(result) : message,
        result,
        stacks: (undo: string[], id: string) => ({ undo: [...undo, id], redo: [] }),
      };
    });
  }

  async undo(ctx: EditContext): Promise<EditResult<null>> {
    return this.withRetry(ctx, async (repo, workflow) => {
      const undo = parseStack(workflow.undo_stack);
      const target = undo.length ? await repo.findCommit(undo[undo.length - 1]) : undefined;
      if (!target) throw conflict('server.history.nothingToUndo');
      const previous = await repo.findCommitBefore(workflow.id, target.seq);
      if (!previous) throw conflict('server.history.nothingToUndo');
      return {
        after: JSON.parse(previous.snapshot) as WorkflowSnapshot,
        kind: 'undo' as const,
        message: { key: 'server.history.msg.undo', of: JSON.parse(target.message) as CommitMessage },
        result: null,
        stacks: () => ({ undo: undo.slice(0, -1), redo: [...parseStack(workflow.redo_stack), target.id] }),
      };
    });
  }

  async redo(ctx: EditContext): Promise<EditResult<null>> {
    return this.withRetry(ctx, async (repo, workflow) => {
      const redo = parseStack(workflow.redo_stack);
      const target = redo.length ? await repo.findCommit(redo[redo.length - 1]) : undefined;
      if (!target) throw conflict('server.history.nothingToRedo');
      return {
        after: JSON.parse(target.snapshot) as WorkflowSnapshot,
        kind: 'redo' as const,
        message: { key: 'server.history.msg.redo', of: JSON.parse(target.message) as CommitMessage },
        result: null,
        stacks: () => ({ undo: [...parseStack(workflow.undo_stack), target.id], redo: redo.slice(0, -1) }),
      };
    });
  }

  /** Brings back the state after `commit` as a new, undoable edit. */
  async restore(ctx: EditContext, commit: CommitRow): Promise<EditResult<null>> {
    return this.withRetry(ctx, () => ({
      after: JSON.parse(commit.snapshot) as WorkflowSnapshot,
      kind: 'restore' as const,
      message: { key: 'server.history.msg.restore', values: { seq: commit.seq }, of: JSON.parse(commit.message) as CommitMessage },
      result: null,
      stacks: (undo: string[], id: string) => ({ undo: [...undo, id], redo: [] }),
    }));
  }

  private async withRetry<T>(ctx: EditContext, plan: Planner<T>): Promise<EditResult<T>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db.transaction().execute((trx) => this.apply(new WorkflowsRepository(trx), ctx, plan));
      } catch (error) {
        // Lost a race with another edit while the client did not pin a version: start again from
        // the new state. With a pinned version the conflict is the client's to resolve.
        if (error instanceof RaceLost && ctx.expectedVersion === undefined && attempt < 5) continue;
        if (error instanceof RaceLost) throw conflict('server.workflows.staleVersion', { version: error.current });
        throw error;
      }
    }
  }

  private async apply<T>(repo: WorkflowsRepository, ctx: EditContext, plan: Planner<T>): Promise<EditResult<T>> {
    const workflow = (await repo.lockOwned(ctx.workflowId, ctx.userId)) ? await repo.findOwned(ctx.workflowId, ctx.userId) : undefined;
    if (!workflow) throw notFound('server.workflows.notFound');
    if (ctx.expectedVersion !== undefined && ctx.expectedVersion !== workflow.version) {
      throw conflict('server.workflows.staleVersion', { version: workflow.version });
    }
    const before = await repo.loadSnapshot(workflow);
    const { after, kind, message, result, stacks } = await plan(repo, workflow, before);

    const problems: Problem[] = graphProblems(after.steps, this.limitsOf);
    if (problems.length) throw new ValidationFailed(problems);

    const changes = diffSnapshots(before, after, workflow.id);
    if (changes.length === 0 && kind === 'edit') return { workflow, snapshot: before, commit: null, result };

    const now = new Date().toISOString();
    await repo.saveChanges(workflow.id, after, changes, now);
    const commit: CommitRow = {
      id: randomUUID(),
      workflow_id: workflow.id,
      seq: workflow.version + 1,
      author_id: ctx.userId,
      kind,
      message: JSON.stringify(message),
      changes: JSON.stringify(changes),
      snapshot: JSON.stringify(after),
      created_at: now,
    };
    await repo.insertCommit(commit);
    const next = stacks(parseStack(workflow.undo_stack), commit.id);
    const fields = {
      name: after.name,
      description: after.description,
      tags: JSON.stringify(after.tags),
      undo_stack: JSON.stringify(next.undo),
      redo_stack: JSON.stringify(next.redo),
      updated_at: now,
    };
    if (!(await repo.advance(workflow.id, workflow.version, fields))) {
      const current = await repo.findById(workflow.id);
      throw new RaceLost(current?.version ?? workflow.version);
    }
    return { workflow: { ...workflow, ...fields, version: workflow.version + 1 }, snapshot: after, commit, result };
  }
}

type Planner<T> = (
  repo: WorkflowsRepository,
  workflow: WorkflowRow,
  before: WorkflowSnapshot,
) =>
  | Plan<T>
  | Promise<Plan<T>>;

interface Plan<T> {
  after: WorkflowSnapshot;
  kind: CommitRow['kind'];
  message: CommitMessage;
  result: T;
  stacks: (undo: string[], commitId: string) => { undo: string[]; redo: string[] };
}

class RaceLost extends Error {
  constructor(readonly current: number) {
    super('workflow changed concurrently');
  }
}
