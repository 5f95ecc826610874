import type { Db } from '../../db/database';
import type { RunState } from '../../engine/run/run-states';
import { RunChargesService } from '../usage/run-charges.service';
import { WorkflowAccessService } from '../workflows/workflow-access.service';
import { RunsRepository } from './runs.repository';
import type { RunListItemOut } from './runs.schemas';
import { summaryView, type Translate } from './runs.service';

export interface RunListOptions {
  /** Only this workflow's runs; absent: the user's runs across all their workflows. */
  workflowId?: string | null;
  /** Only runs in these states. */
  states?: readonly RunState[] | null;
  page: number;
  pageSize: number;
}

/** Whole milliseconds from `from` to `to`; null until it has ended. */
function durationMs(from: string | null, to: string | null): number | null {
  if (!from || !to) return null;
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) ? Math.max(0, Math.round(ms)) : null;
}

/**
 * The lists of runs people read (the executions page across workflows, a workflow's run history):
 * each run with its workflow's name, how long it took, how many records it processed and what it
 * cost. A page is three queries whatever its size: the runs with their record counts, their
 * workflows' names and their charges (each area answers its own).
 */
export class RunListService {
  private readonly runs: RunsRepository;
  private readonly workflows: WorkflowAccessService;
  private readonly charges: RunChargesService;

  constructor(db: Db) {
    this.runs = new RunsRepository(db);
    this.workflows = new WorkflowAccessService(db);
    this.charges = new RunChargesService(db);
  }

  /** The user's runs, newest first, a page at a time. Only their own: another user's workflow id lists nothing. */
  async list(userId: string, options: RunListOptions, t: Translate): Promise<{ items: RunListItemOut[]; total: number; page: number; page_size: number }> {
    const filter = { userId, workflowId: options.workflowId ?? null, states: options.states ?? null };
    const [rows, total] = await Promise.all([this.runs.listRuns(filter, options.pageSize, (options.page - 1) * options.pageSize), this.runs.countRuns(filter)]);
    const runIds = rows.map((r) => r.id);
    const [names, costs] = await Promise.all([
      this.workflows.workflowNames([...new Set(rows.map((r) => r.workflow_id))], userId),
      this.charges.creditsByRun(userId, runIds),
    ]);
    const items = rows.map((row) => ({
      ...summaryView(row, t),
      // A run goes with its workflow (ON DELETE CASCADE): a missing name is one deleted this instant.
      workflow_name: names.get(row.workflow_id) ?? '',
      duration_ms: durationMs(row.started_at ?? row.created_at, row.ended_at),
      records: Number(row.records ?? 0),
      cost_credits: costs.get(row.id) ?? 0,
    }));
    return { items, total, page: options.page, page_size: options.pageSize };
  }
}
