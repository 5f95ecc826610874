import type { Db } from '../../db/database';
import { RunsRepository } from './runs.repository';

/** The runs area's answers for other areas (a workflow's info, a step's input, credits on hold). */
export class RunLookupsService {
  private readonly runs: RunsRepository;

  constructor(db: Db) {
    this.runs = new RunsRepository(db);
  }

  lastRun(workflowId: string) {
    return this.runs.lastRun(workflowId);
  }

  /** The dataset the step's latest finished run wrote. */
  latestOutputOf(workflowId: string, stepId: string) {
    return this.runs.latestOutputOf(workflowId, stepId);
  }

  /** Each step's latest outputs over the workflow's recent runs. */
  latestOutputsOf(workflowId: string, userId: string) {
    return this.runs.latestOutputsOf(workflowId, userId);
  }

  /** The user's runs paused for want of credits. */
  countPausedForCredits(userId: string): Promise<number> {
    return this.runs.countPausedForCredits(userId);
  }
}
