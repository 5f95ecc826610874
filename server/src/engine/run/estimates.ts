import { DomainError, notFound, rejected, type ModalNotice } from '../../lib/errors';
import { roundCreditsForPeople as roundCredits } from '../../modules/usage/ledger';
import { findCycle } from '../../modules/workflows/workflow-state';
import type { ParamValues } from '../params';
import { getStepType } from '../step-types';
import type { EngineCore } from './engine-core';
import { planRun } from './run-plan';
import type { RunMode } from './run-states';

/** A run's estimated cost, step by step (micro-credits). */
export interface RunEstimate {
  creditsMicro: number;
  /**
   * A priced per-record step's record count is not known before running (records null): its cost
   * is not in `creditsMicro`, which then says only what is known, not what the run will cost.
   */
  unknown: boolean;
  lines: { stepId: string; stepName: string; stepType: string; per: 'run' | 'record'; records: number | null; creditsMicro: number; unitMicro: number }[];
}

type PlannedStep = { id: string; step_type: string; name: string; inputs: string[]; param_inputs: ParamValues };

/**
 * What a run will cost, and the credit gates: before a run starts (its estimate), and before a run
 * paused for lack of credits resumes. Prices and the balance come through the credits port, which
 * modules/usage implements.
 */
export class RunEstimates {
  constructor(private readonly core: EngineCore) {}

  /** What a run would cost (same arguments as `start`): the editor's estimate, and the check before a run. */
  async estimate(userId: string, workflowId: string, stepId: string | null, options: { mode: RunMode; sampleSize: number | null }): Promise<RunEstimate> {
    const { workflows } = this.core.deps;
    const workflow = await workflows.findOwned(workflowId, userId);
    if (!workflow) throw notFound('server.workflows.notFound');
    const state = await workflows.loadSnapshot(workflow);
    if (stepId !== null && !state.steps.some((s) => s.id === stepId)) throw notFound('server.steps.notFound');
    if (findCycle(state.steps)) throw rejected('server.runs.cycle');
    // Without a step: the whole workflow.
    const target = stepId ?? state.steps[0]?.id;
    if (!target) return { creditsMicro: 0, unknown: false, lines: [] };
    return this.estimatePlan(userId, workflowId, state.steps, planRun(state.steps, target, stepId === null ? 'all' : options.mode), options.sampleSize);
  }

  /**
   * Per-record steps: the records they will read × their price; other steps: their price once. A
   * step's record count is what is known before running: its input's newest output (an earlier run,
   * or a step outside the run), else what flows from its own input (per-record steps keep their
   * records), else a typed-in table's rows, a chosen dataset's count or a chosen file's count (counted
   * at upload or now, decision 0066); unknown counts add nothing (records null) and mark the estimate
   * `unknown`, and AI tokens are not estimated. A sample run (a preview) reads at most its sample size,
   * so its estimate is the preview's cost.
   */
  async estimatePlan(
    userId: string,
    workflowId: string,
    steps: readonly PlannedStep[],
    plan: { steps: string[] },
    sampleSize: number | null,
  ): Promise<RunEstimate> {
    const { credits, datasetCatalog, fileRowCounts } = this.core.deps;
    const latest = await this.core.runs.latestOutputsOf(workflowId, userId);
    const byId = new Map(steps.map((s) => [s.id, s]));
    const inPlan = new Set(plan.steps);
    const produced = new Map<string, number | null>();
    const cap = (n: number | null) => (n === null || sampleSize === null ? n : Math.min(n, sampleSize));
    const countOf = (id: string | undefined): number | null => {
      if (!id) return null;
      if (inPlan.has(id) && produced.has(id)) return produced.get(id)!;
      return latest.get(id)?.rowCount ?? null;
    };
    const lines: RunEstimate['lines'] = [];
    let total = 0;
    const datasetLookup = {
      datasetRowCount: async (datasetId: string) => (await datasetCatalog.findOwned(userId, datasetId).catch(() => undefined))?.rowCount ?? null,
      fileRowCount: (fileId: string) => fileRowCounts.rowCount(userId, fileId),
    };
    for (const id of plan.steps) {
      const step = byId.get(id)!;
      const { per, unitMicro } = credits.priceOf(step.step_type);
      const input = cap(countOf(step.inputs[0]));
      let out = latest.get(id)?.rowCount ?? null;
      const type = getStepType(step.step_type);
      if (out === null && type?.runner.kind === 'per-record') out = input;
      if (out === null && type?.estimateOutputRecords) out = await type.estimateOutputRecords(step.param_inputs, datasetLookup);
      produced.set(id, cap(out));
      const records = per === 'record' ? input : null;
      const micro = per === 'record' ? (records ?? 0) * unitMicro : unitMicro;
      total += micro;
      lines.push({ stepId: id, stepName: step.name, stepType: step.step_type, per, records, creditsMicro: micro, unitMicro });
    }
    const unknown = lines.some((l) => l.per === 'record' && l.records === null && l.unitMicro > 0);
    return { creditsMicro: total, unknown, lines };
  }

  /** Before a run: 402 with the "insufficient credits" modal when the balance is below its estimate (or spent and the run has a priced step). */
  async requireCreditsFor(userId: string, estimate: RunEstimate): Promise<void> {
    const { credits } = this.core.deps;
    if (!credits.enabled) return;
    const balance = await credits.balanceMicro(userId);
    const priced = estimate.lines.some((l) => l.unitMicro > 0);
    if (balance >= estimate.creditsMicro && !(balance <= 0 && priced)) return;
    const values = { needed: roundCredits(estimate.creditsMicro), balance: roundCredits(balance) };
    throw new DomainError('payment_required', 'server.usage.insufficientCredits', values, insufficientCreditsModal('server.usage.insufficientCreditsHelp'));
  }

  /** Before resuming: 402 with the "insufficient credits" modal when billing is on and the balance is not above 0. */
  async requireCredits(userId: string): Promise<void> {
    const { credits } = this.core.deps;
    if (!credits.enabled) return;
    const balance = await credits.balanceMicro(userId);
    if (balance > 0) return;
    throw new DomainError(
      'payment_required',
      'server.usage.resumeNeedsCredits',
      { balance: roundCredits(balance) },
      insufficientCreditsModal('server.usage.resumeNeedsCreditsHelp'),
    );
  }
}

/** The modal of a 402 for lack of credits (its 'Top up' button leads to the billing page). */
export function insufficientCreditsModal(content: string): ModalNotice {
  return { modal_id: 'insufficient-credits', level: 'warning', content, buttons: ['Top up', 'Cancel'] };
}
