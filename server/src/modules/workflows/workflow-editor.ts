import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database';
import { conflict, notFound, ValidationFailed, type Problem } from '../../lib/errors';
import { CommitsRepository, type CommitHead, type CommitRow, type UndoAvailability } from './commits.repository';
import { composeUpdates, deltaBetween, forHistory, isMoveOnly, unionOfChanges, withCurrentSecrets, type SnapshotDelta } from './workflow-delta';
import { diffSnapshots, graphProblems, type Change, type InputLimits, type WorkflowSnapshot } from './workflow-state';
import { WorkflowsRepository, type WorkflowRow } from './workflows.repository';
import { cloneJson } from '../../lib/json-values';
import { KeyedLanes } from '../../lib/keyed-lanes';

/** A commit's message as a catalog key, rendered in each reader's language. */
export interface CommitMessage {
  key: string;
  values?: Record<string, string | number>;
  /** Undo, redo and restore name the commit they act on. */
  of?: CommitMessage;
}

/** A notice for the client (a `warnings` entry), as a catalog key. */
export interface EditWarning {
  key: string;
  values?: Record<string, string | number>;
}

export interface EditContext {
  workflowId: string;
  userId: string;
  /** The version the client based its change on (If-Match); a different current version → 409. */
  expectedVersion?: number;
  /** Stage the edit in this batch instead of writing it (an agent's turn: one commit at its end). */
  batch?: EditBatch;
}

/**
 * Edits staged in memory on a copy of the workflow and written later as ONE commit (the
 * coordinator's turn, docs/agents.md), or never (a dry run). Each staged edit runs the same
 * mutation and graph rules as a direct one, so a tool sees the same refusals as the API; the
 * services read the staged state through `draft`.
 */
export class EditBatch {
  /** The workflow with every staged edit applied. */
  draft: WorkflowSnapshot;
  /** How many edits were staged. */
  staged = 0;

  constructor(
    readonly workflow: WorkflowRow,
    readonly base: WorkflowSnapshot,
  ) {
    this.draft = cloneJson(base);
  }

  /** What the staged edits change, as the history records it. */
  changes(): Change[] {
    return diffSnapshots(this.base, this.draft, this.workflow.id);
  }
}

export interface EditResult<T> {
  workflow: WorkflowRow & UndoAvailability;
  snapshot: WorkflowSnapshot;
  /** Null when the edit changed nothing (no commit is written). */
  commit: CommitHead | null;
  result: T;
  warnings: EditWarning[];
}

/** What an edit does to the draft state; may answer a value (e.g. the id of a created step). */
export type Mutation<T> = (draft: WorkflowSnapshot, workflow: WorkflowRow) => T;

/** How much history a workflow keeps, and how. */
export const HISTORY = {
  /** Undo steps back at most this far; redo can never hold more (it is fed by undo). */
  undoLimit: 100,
  /** A full state every this many commits; any other state is rebuilt from at most this many deltas. */
  checkpointEvery: 100,
  /**
   * Canvas moves by the same person within this long of the last one become one commit while it is
   * still the newest, so undo takes back a whole drag (and a multi-step drag) at once, as in n8n or
   * Dify, instead of one commit per step per pause of the mouse.
   */
  moveMergeWindowMs: 10_000,
};

/**
 * Edits of one workflow in this process, one at a time. Each edit's transaction waits for the
 * workflow's row lock (lockOwned) while holding a database connection: on PostgreSQL, ten edits of
 * one workflow at once held the pool's ten connections and every other request queued behind them
 * (`GET /users/me` p99 2.3–2.8× higher in the bench). Queued here, they hold one; the row lock still
 * orders edits across processes.
 */
const editsOfWorkflow = new KeyedLanes();

/**
 * The one way a workflow changes (ARCHITECTURE.md decision 8). An edit loads the workflow's state,
 * applies a pure mutation to a copy, checks the graph rules, writes the rows that differ and appends
 * a commit, all in one transaction. The workflow's version guards the write: a stale If-Match
 * answers 409; a race between two unversioned edits retries the loser.
 *
 * Undo and redo walk the commits of ordinary edits: undo brings back the state before the newest
 * undoable commit, redo the state after it; both are commits themselves, so the history shows them.
 * A new edit empties the redo stack. Restore brings back any commit's state as a new edit. Secret
 * values are not part of the history: a state brought back keeps each secret's current value.
 */
export class WorkflowEditor {
  constructor(
    private readonly db: Db,
    private readonly limitsOf: (stepType: string) => InputLimits | null,
  ) {}

  /** `message` may be computed from the result, e.g. to name the step just changed. */
  async edit<T>(ctx: EditContext, message: CommitMessage | ((result: T) => CommitMessage), mutate: Mutation<T>): Promise<EditResult<T>> {
    if (ctx.batch) return this.stage(ctx.batch, mutate);
    return this.withRetry(ctx, (_repos, workflow, before) => {
      const draft = cloneJson(before);
      const result = mutate(draft, workflow);
      return { after: draft, kind: 'edit' as const, message: typeof message === 'function' ? message(result) : message, result, warnings: [] };
    });
  }

  /** A batch on the caller's workflow as it is now (404 for another's). */
  async beginBatch(workflowId: string, userId: string): Promise<EditBatch> {
    const workflows = new WorkflowsRepository(this.db);
    const workflow = await workflows.findOwned(workflowId, userId);
    if (!workflow) throw notFound('server.workflows.notFound');
    return new EditBatch(workflow, await workflows.loadSnapshot(workflow));
  }

  /**
   * Writes a batch's staged edits as one commit (undone by one undo). Based on the version the
   * batch started from: when the workflow changed meanwhile it answers 409 instead of overwriting.
   * Null when the batch changes nothing.
   */
  async commitBatch(batch: EditBatch, userId: string, message: CommitMessage): Promise<EditResult<null> | null> {
    if (!batch.changes().length) return null;
    const after = cloneJson(batch.draft);
    return this.withRetry({ workflowId: batch.workflow.id, userId, expectedVersion: batch.workflow.version }, () => ({
      after,
      kind: 'edit' as const,
      message,
      result: null,
      warnings: [],
    }));
  }

  /**
   * Writes a proposal kept from a dry run (the workflow as the turn left it) as one commit, based
   * on the version it started from: a workflow changed since answers 409.
   */
  async commitProposal(
    workflowId: string,
    userId: string,
    proposal: { base_version: number; after: WorkflowSnapshot },
    message: CommitMessage,
  ): Promise<EditResult<null>> {
    const after = cloneJson(proposal.after);
    return this.withRetry({ workflowId, userId, expectedVersion: proposal.base_version }, () => ({
      after,
      kind: 'edit' as const,
      message,
      result: null,
      warnings: [],
    }));
  }

  private stage<T>(batch: EditBatch, mutate: Mutation<T>): EditResult<T> {
    const draft = cloneJson(batch.draft);
    const result = mutate(draft, batch.workflow);
    const problems: Problem[] = graphProblems(draft.steps, this.limitsOf);
    if (problems.length) throw new ValidationFailed(problems);
    batch.draft = draft;
    batch.staged++;
    return { workflow: { ...batch.workflow, can_undo: false, can_redo: false }, snapshot: draft, commit: null, result, warnings: [] };
  }

  async undo(ctx: EditContext): Promise<EditResult<null>> {
    return this.withRetry(ctx, async ({ commits }, workflow, before) => {
      const target = await commits.top(workflow.id, 'undo');
      const previous = target && (await commits.before(workflow.id, target.seq));
      if (!target || !previous) throw conflict('server.history.nothingToUndo');
      return {
        ...this.bringBack(await commits.stateAfter(workflow.id, previous.id), before),
        kind: 'undo' as const,
        message: { key: 'server.history.msg.undo', of: JSON.parse(target.message) as CommitMessage },
        result: null,
        target: target.id,
      };
    });
  }

  async redo(ctx: EditContext): Promise<EditResult<null>> {
    return this.withRetry(ctx, async ({ commits }, workflow, before) => {
      const target = await commits.top(workflow.id, 'redo');
      if (!target) throw conflict('server.history.nothingToRedo');
      return {
        ...this.bringBack(await commits.stateAfter(workflow.id, target.id), before),
        kind: 'redo' as const,
        message: { key: 'server.history.msg.redo', of: JSON.parse(target.message) as CommitMessage },
        result: null,
        target: target.id,
      };
    });
  }

  /** Brings back the state after commit `commitId` (of this workflow) as a new, undoable edit. */
  async restore(ctx: EditContext, commitId: string): Promise<EditResult<null>> {
    return this.withRetry(ctx, async ({ commits }, workflow, before) => {
      const commit = await commits.find(commitId);
      if (!commit || commit.workflow_id !== workflow.id) throw notFound('server.history.commitNotFound');
      return {
        ...this.bringBack(await commits.stateAfter(workflow.id, commit.id), before),
        kind: 'restore' as const,
        message: { key: 'server.history.msg.restore', values: { seq: commit.seq }, of: JSON.parse(commit.message) as CommitMessage },
        result: null,
      };
    });
  }

  /** A state from the history, with today's secret values, and a warning per secret left empty. */
  private bringBack(target: WorkflowSnapshot, current: WorkflowSnapshot) {
    const { state, emptied } = withCurrentSecrets(target, current);
    return { after: state, warnings: emptied.map((name) => ({ key: 'server.history.secretNeedsValue', values: { name } })) };
  }

  private withRetry<T>(ctx: EditContext, plan: Planner<T>): Promise<EditResult<T>> {
    return editsOfWorkflow.run(ctx.workflowId, () => this.retrying(ctx, plan));
  }

  private async retrying<T>(ctx: EditContext, plan: Planner<T>): Promise<EditResult<T>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db
          .transaction()
          .execute((trx) => this.apply({ workflows: new WorkflowsRepository(trx), commits: new CommitsRepository(trx) }, ctx, plan));
      } catch (error) {
        // Lost a race with another edit while the client did not pin a version: start again from
        // the new state. With a pinned version the conflict is the client's to resolve.
        if (error instanceof RaceLost && ctx.expectedVersion === undefined && attempt < 5) continue;
        if (error instanceof RaceLost) throw conflict('server.workflows.staleVersion', { version: error.current });
        throw error;
      }
    }
  }

  private async apply<T>(repos: Repositories, ctx: EditContext, plan: Planner<T>): Promise<EditResult<T>> {
    const { workflows, commits } = repos;
    const workflow = (await workflows.lockOwned(ctx.workflowId, ctx.userId)) ? await workflows.findOwned(ctx.workflowId, ctx.userId) : undefined;
    if (!workflow) throw notFound('server.workflows.notFound');
    if (ctx.expectedVersion !== undefined && ctx.expectedVersion !== workflow.version) {
      throw conflict('server.workflows.staleVersion', { version: workflow.version });
    }
    const before = await workflows.loadSnapshot(workflow);
    const { after, kind, message, result, warnings, target } = await plan(repos, workflow, before);

    const problems: Problem[] = graphProblems(after.steps, this.limitsOf);
    if (problems.length) throw new ValidationFailed(problems);

    const changes = diffSnapshots(before, after, workflow.id);
    if (changes.length === 0 && kind === 'edit') {
      return { workflow: { ...workflow, ...(await commits.availability(workflow.id)) }, snapshot: before, commit: null, result, warnings };
    }

    const now = new Date().toISOString();
    const version = workflow.version + 1;
    await workflows.saveChanges(workflow.id, after, changes, now);
    const step: CommitStep = { commits, userId: ctx.userId, workflow, before, after, changes, now, newest: await commits.newest(workflow.id) };
    const commit = (kind === 'edit' && (await mergeMove(step))) || (await append(step, kind, message, target));

    const fields = { name: after.name, description: after.description, tags: JSON.stringify(after.tags), updated_at: now };
    if (!(await workflows.advance(workflow.id, workflow.version, fields))) {
      const current = await workflows.findById(workflow.id);
      throw new RaceLost(current?.version ?? workflow.version);
    }
    return {
      workflow: { ...workflow, ...fields, version, ...(await availabilityAfter(commits, workflow.id, kind)) },
      snapshot: after,
      commit,
      result,
      warnings,
    };
  }
}

/** Everything the commit of one edit is made from. */
interface CommitStep {
  commits: CommitsRepository;
  userId: string;
  workflow: WorkflowRow;
  before: WorkflowSnapshot;
  after: WorkflowSnapshot;
  changes: Change[];
  now: string;
  newest: (CommitHead & { delta: string | null }) | undefined;
}

/** A new commit at the next version, and the stacks moved as its kind says. */
async function append(
  { commits, userId, workflow, before, after, changes, now, newest }: CommitStep,
  kind: CommitRow['kind'],
  message: CommitMessage,
  target: string | undefined,
): Promise<CommitHead> {
  const version = workflow.version + 1;
  const depth = newest && newest.depth + 1 < HISTORY.checkpointEvery ? newest.depth + 1 : 0;
  const commit: CommitRow = {
    id: randomUUID(),
    workflow_id: workflow.id,
    seq: version,
    author_id: userId,
    kind,
    message: JSON.stringify(kind === 'edit' && isMoveOnly(changes) ? moveMessage(changes, after) : message),
    changes: JSON.stringify(changes),
    checkpoint: depth === 0 ? JSON.stringify(forHistory(after)) : null,
    delta: depth === 0 ? null : JSON.stringify(deltaBetween(forHistory(before), forHistory(after))),
    depth,
    created_at: now,
  };
  await commits.insert(commit);

  // A stack entry's position is the version that put it there: always above whatever is on it.
  if (kind === 'edit' || kind === 'restore') {
    await commits.putOnTop(workflow.id, commit.id, 'undo', version);
    await commits.clear(workflow.id, 'redo');
  } else if (kind === 'undo') {
    await commits.putOnTop(workflow.id, target!, 'redo', version);
  } else if (kind === 'redo') {
    await commits.putOnTop(workflow.id, target!, 'undo', version);
  }
  if (kind !== 'undo') await commits.trim(workflow.id, 'undo', HISTORY.undoLimit);
  const { checkpoint: _c, delta: _d, ...head } = commit;
  return head;
}

/**
 * Folds a canvas move into the newest commit when that one is a move by the same person, made
 * moments ago, and still the one undo would take back: it then spans the whole drag, from the
 * positions before the first move to those after this one. The commit takes the new version as
 * its `seq`, so `seq` stays "the version this commit produced". Answers null when it cannot merge.
 */
async function mergeMove({ commits, userId, workflow, before, after, changes, now, newest }: CommitStep): Promise<CommitHead | null> {
  if (!isMoveOnly(changes)) return null;
  if (!newest || newest.kind !== 'edit' || newest.author_id !== userId || newest.seq !== workflow.version) return null;
  if (Date.parse(now) - Date.parse(newest.created_at) > HISTORY.moveMergeWindowMs) return null;
  const earlier = JSON.parse(newest.changes) as Change[];
  if (!isMoveOnly(earlier)) return null;
  if ((await commits.top(workflow.id, 'undo'))?.id !== newest.id) return null;

  const merged = unionOfChanges(earlier, changes);
  const fields: Partial<CommitRow> = {
    seq: workflow.version + 1,
    message: JSON.stringify(moveMessage(merged, after)),
    changes: JSON.stringify(merged),
    created_at: now,
  };
  if (newest.delta === null) fields.checkpoint = JSON.stringify(forHistory(after));
  else fields.delta = JSON.stringify(composeUpdates(JSON.parse(newest.delta) as SnapshotDelta, deltaBetween(forHistory(before), forHistory(after))));
  await commits.update(newest.id, fields);
  const { delta: _d, ...head } = newest;
  return { ...head, seq: workflow.version + 1, message: fields.message!, changes: fields.changes!, created_at: now };
}

/** What undo/redo can do after a commit of this kind; only the stack it took from needs a look. */
async function availabilityAfter(commits: CommitsRepository, workflowId: string, kind: CommitRow['kind']): Promise<UndoAvailability> {
  if (kind === 'undo') return { can_undo: !(await commits.isEmpty(workflowId, 'undo')), can_redo: true };
  if (kind === 'redo') return { can_undo: true, can_redo: !(await commits.isEmpty(workflowId, 'redo')) };
  // An edit or restore (merged or not) is on top of undo, and emptied redo.
  return { can_undo: true, can_redo: false };
}

/** "Moved step Filter", or "Moved 3 steps" for a drag of several. */
function moveMessage(changes: Change[], after: WorkflowSnapshot): CommitMessage {
  if (changes.length > 1) return { key: 'server.history.msg.stepsMoved', values: { count: changes.length } };
  const step = after.steps.find((s) => s.id === changes[0].id);
  return { key: 'server.history.msg.stepMoved', values: { name: step?.name ?? '' } };
}

interface Repositories {
  workflows: WorkflowsRepository;
  commits: CommitsRepository;
}

type Planner<T> = (repos: Repositories, workflow: WorkflowRow, before: WorkflowSnapshot) => Plan<T> | Promise<Plan<T>>;

interface Plan<T> {
  after: WorkflowSnapshot;
  kind: CommitRow['kind'];
  message: CommitMessage;
  result: T;
  warnings: EditWarning[];
  /** Undo and redo: the commit they move from one stack to the other. */
  target?: string;
}

class RaceLost extends Error {
  constructor(readonly current: number) {
    super('workflow changed concurrently');
  }
}
