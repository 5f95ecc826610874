import type { Db } from '../../db/database';
import type { MessageValues } from '../../i18n/messages';
import { notFound } from '../../lib/errors';
import type { CommitMessage, EditContext } from '../workflows/workflow-editor';
import type { WorkflowSnapshot } from '../workflows/workflow-state';
import { toStepOut, toVariableOut, toWorkflowOut } from '../workflows/workflow-views';
import { WorkflowsRepository, type CommitRow } from '../workflows/workflows.repository';
import { editorFor } from '../workflows/workflows.service';

type Translate = (key: string, values?: MessageValues) => string;

/** "Undo: Added step Filter" — nested messages render inside out, in the reader's language. */
export function renderMessage(t: Translate, message: CommitMessage): string {
  return t(message.key, { ...message.values, what: message.of ? renderMessage(t, message.of) : '' });
}

export class HistoryService {
  private readonly repo: WorkflowsRepository;
  private readonly editor: ReturnType<typeof editorFor>;

  constructor(db: Db) {
    this.repo = new WorkflowsRepository(db);
    this.editor = editorFor(db);
  }

  async list(userId: string, workflowId: string, page: number, pageSize: number, t: Translate) {
    await this.owned(userId, workflowId);
    const { rows, total } = await this.repo.listCommits(workflowId, pageSize, (page - 1) * pageSize);
    const items = rows.map((r) => this.toCommitOut(r, r.author_name ?? null, t));
    return { items, total, page, page_size: pageSize };
  }

  async get(userId: string, commitId: string, t: Translate) {
    const commit = await this.ownedCommit(userId, commitId);
    const state = JSON.parse(commit.snapshot) as WorkflowSnapshot;
    return {
      ...this.toCommitOut(commit, commit.author_name, t),
      state: {
        name: state.name,
        description: state.description,
        tags: state.tags,
        steps: state.steps.map((s) => toStepOut(commit.workflow_id, s)),
        variables: state.variables.map((v) => toVariableOut(commit.workflow_id, v)),
      },
    };
  }

  async undo(ctx: EditContext) {
    const { workflow, snapshot, commit } = await this.editor.undo(ctx);
    return { workflow: toWorkflowOut(workflow, snapshot), commit: commit! };
  }

  async redo(ctx: EditContext) {
    const { workflow, snapshot, commit } = await this.editor.redo(ctx);
    return { workflow: toWorkflowOut(workflow, snapshot), commit: commit! };
  }

  async restore(userId: string, commitId: string, expectedVersion: number | undefined) {
    const target = await this.ownedCommit(userId, commitId);
    const { workflow, snapshot, commit } = await this.editor.restore({ workflowId: target.workflow_id, userId, expectedVersion }, target);
    return { workflow: toWorkflowOut(workflow, snapshot), commit: commit! };
  }

  toCommitOut(row: Pick<CommitRow, 'id' | 'workflow_id' | 'seq' | 'kind' | 'message' | 'changes' | 'created_at' | 'author_id'>, authorName: string | null, t: Translate) {
    return {
      id: row.id,
      workflow_id: row.workflow_id,
      seq: row.seq,
      kind: row.kind,
      message: renderMessage(t, JSON.parse(row.message) as CommitMessage),
      author: row.author_id ? { id: row.author_id, name: authorName ?? '' } : null,
      changes: JSON.parse(row.changes),
      created_at: row.created_at,
    };
  }

  private async owned(userId: string, workflowId: string) {
    const workflow = await this.repo.findOwned(workflowId, userId);
    if (!workflow) throw notFound('server.workflows.notFound');
    return workflow;
  }

  /** A commit of one of the caller's workflows; anyone else's answers 404. */
  private async ownedCommit(userId: string, commitId: string) {
    const commit = await this.repo.findOwnedCommit(commitId, userId);
    if (!commit) throw notFound('server.history.commitNotFound');
    return commit;
  }
}
