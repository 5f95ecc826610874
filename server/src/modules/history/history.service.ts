import type { Db } from '../../db/database';
import type { MessageValues } from '../../i18n/messages';
import { notFound } from '../../lib/errors';
import type { CommitMessage, EditContext, EditResult } from '../workflows/workflow-editor';
import { toStepOut, toVariableOut, toWorkflowOut } from '../workflows/workflow-views';
import { WorkflowAccessService, type CommitHead } from '../workflows/workflow-access.service';
import { editorFor } from '../workflows/workflows.service';

type Translate = (key: string, values?: MessageValues) => string;

/** "Undo: Added step Filter" — nested messages render inside out, in the reader's language. */
export function renderMessage(t: Translate, message: CommitMessage): string {
  return t(message.key, { ...message.values, what: message.of ? renderMessage(t, message.of) : '' });
}

export class HistoryService {
  private readonly workflows: WorkflowAccessService;
  private readonly editor: ReturnType<typeof editorFor>;

  constructor(db: Db) {
    this.workflows = new WorkflowAccessService(db);
    this.editor = editorFor(db);
  }

  async list(userId: string, workflowId: string, page: number, pageSize: number, t: Translate) {
    await this.owned(userId, workflowId);
    const { rows, total } = await this.workflows.commitsOf(workflowId, pageSize, (page - 1) * pageSize);
    const items = rows.map((r) => this.toCommitOut(r, r.author_name ?? null, t));
    return { items, total, page, page_size: pageSize };
  }

  async get(userId: string, commitId: string, t: Translate) {
    const commit = await this.ownedCommit(userId, commitId);
    const state = await this.workflows.stateAfterCommit(commit.workflow_id, commit.id);
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
    return answer(await this.editor.undo(ctx));
  }

  async redo(ctx: EditContext) {
    return answer(await this.editor.redo(ctx));
  }

  async restore(userId: string, commitId: string, expectedVersion: number | undefined) {
    const target = await this.ownedCommit(userId, commitId);
    return answer(await this.editor.restore({ workflowId: target.workflow_id, userId, expectedVersion }, target.id));
  }

  toCommitOut(
    row: Pick<CommitHead, 'id' | 'workflow_id' | 'seq' | 'kind' | 'message' | 'changes' | 'created_at' | 'author_id'>,
    authorName: string | null,
    t: Translate,
  ) {
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
    const workflow = await this.workflows.ownedWorkflow(workflowId, userId);
    if (!workflow) throw notFound('server.workflows.notFound');
    return workflow;
  }

  /** A commit of one of the caller's workflows; anyone else's answers 404. */
  private async ownedCommit(userId: string, commitId: string) {
    const commit = await this.workflows.ownedCommit(commitId, userId);
    if (!commit) throw notFound('server.history.commitNotFound');
    return commit;
  }
}

/** Undo, redo and restore always write a commit; warnings name secrets that came back empty. */
const answer = ({ workflow, snapshot, commit, warnings }: EditResult<null>) => ({ workflow: toWorkflowOut(workflow, snapshot), commit: commit!, warnings });
