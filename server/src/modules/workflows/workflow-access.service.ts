import type { Db } from '../../db/database';
import type { WorkflowSnapshot } from './workflow-state';
import { CommitsRepository } from './commits.repository';
import { WorkflowsRepository } from './workflows.repository';

export type { CommitHead } from './commits.repository';

/**
 * The workflows area's reads for other areas (steps, variables, history, clone): a workflow and its
 * current state, its commits. Owner-scoped lookups answer nothing for another user's id, exactly
 * like a missing one; the callers turn that into their 404.
 */
export class WorkflowAccessService {
  private readonly workflows: WorkflowsRepository;
  private readonly commits: CommitsRepository;

  constructor(db: Db) {
    this.workflows = new WorkflowsRepository(db);
    this.commits = new CommitsRepository(db);
  }

  ownedWorkflow(id: string, ownerId: string) {
    return this.workflows.findOwned(id, ownerId);
  }

  /** Names of the owner's workflows among `ids` (a list of runs names their workflows in one query). */
  workflowNames(ids: readonly string[], ownerId: string): Promise<Map<string, string>> {
    return this.workflows.namesOf(ids, ownerId);
  }

  /** Any owner's workflow: only for what is public of it (a published workflow being cloned). */
  workflowById(id: string) {
    return this.workflows.findById(id);
  }

  stateOf(workflow: Parameters<WorkflowsRepository['loadSnapshot']>[0]): Promise<WorkflowSnapshot> {
    return this.workflows.loadSnapshot(workflow);
  }

  countClone(id: string): Promise<void> {
    return this.workflows.incrementCloneCount(id);
  }

  /** A commit of one of the owner's workflows. */
  ownedCommit(id: string, ownerId: string) {
    return this.commits.findOwned(id, ownerId);
  }

  commitsOf(workflowId: string, limit: number, offset: number) {
    return this.commits.list(workflowId, limit, offset);
  }

  /** The workflow's state right after the commit. */
  stateAfterCommit(workflowId: string, commitId: string): Promise<WorkflowSnapshot> {
    return this.commits.stateAfter(workflowId, commitId);
  }
}
