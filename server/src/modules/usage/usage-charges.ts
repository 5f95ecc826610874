import type { BillingConfig } from '../../config/config';
import type { Db } from '../../db/database';
import type { ChargedStep, CreditsPort, ReportedUsage } from '../../engine/run';
import { getStepType } from '../../engine/step-types';
import { Ledger, type LedgerEntry } from './ledger';
import { Prices, type UsageUnit } from './prices';

const TOKEN_KINDS = new Set(['ai_tokens_in', 'ai_tokens_out']);
const isCall = (kind: string) => kind.endsWith('.call');

/**
 * Turns a step's work into ledger 'usage' rows at configured prices (the run engine calls it):
 *
 *   per-record step, each finished batch ─► 'record' (records sent: for AI steps only those the model
 *                                            answered, a cached answer is free) or 'call' (HTTP calls)
 *                                          + 'token' (AI tokens in and out)
 *   any other step, at its end          ─► 'run' (1 × price), or 'record' × its records when priced per record
 *
 * One row per (step run, batch, unit), keyed by them: a batch redone after a crash appends rows
 * whose keys are taken, so nothing is charged twice; a row of 0 credits is not written.
 */
export type { ChargedStep, ReportedUsage };

export class UsageCharges implements CreditsPort {
  readonly ledger: Ledger;
  readonly prices: Prices;

  constructor(
    db: Db,
    private readonly billing: BillingConfig,
  ) {
    this.ledger = new Ledger(db);
    this.prices = new Prices(billing);
  }

  get enabled(): boolean {
    return this.billing.enabled;
  }

  /**
   * `recordIds`: the batch's records. Usage is keyed by record; what a batch reports for a record of
   * another batch (an answer that batch paid for, found again in the cache) is that batch's to pay,
   * and a record reported twice (two of its questions were the same) pays once.
   */
  async chargeBatch(step: ChargedStep, batchNo: number, recordIds: ReadonlySet<string>, reported: readonly ReportedUsage[]): Promise<void> {
    if (!this.enabled) return;
    const records = recordIds.size;
    const used = [...new Map(reported.filter((u) => recordIds.has(u.key)).map((u) => [`${u.kind}\u0000${u.key}`, u])).values()];
    const unitMicro = this.prices.unitMicro(step.stepType);
    const calls = used.filter((u) => isCall(u.kind)).reduce((n, u) => n + u.quantity, 0);
    const tokenEvents = used.filter((u) => TOKEN_KINDS.has(u.kind));
    const tokens = tokenEvents.reduce((n, u) => n + u.quantity, 0);
    const entries: LedgerEntry[] = [];
    const key = (unit: UsageUnit) => `usage:${step.stepRunId}:b${batchNo}:${unit}`;
    if (calls) {
      entries.push(this.entry(step, key('call'), 'call', calls, unitMicro, calls * unitMicro));
    } else {
      // AI steps charge the records the model answered (the ones that used tokens); others each record.
      const billed = getStepType(step.stepType)?.billing === 'ai-tokens' ? new Set(tokenEvents.map((u) => u.key)).size : records;
      if (billed) entries.push(this.entry(step, key('record'), 'record', billed, unitMicro, billed * unitMicro));
    }
    if (tokens) entries.push(this.entry(step, key('token'), 'token', tokens, this.prices.tokensMicro(1), this.prices.tokensMicro(tokens)));
    await this.append(entries);
  }

  /** A step that is not run in batches, at its end; `records` is its output's count when known. */
  async chargeStep(step: ChargedStep, records: number | null): Promise<void> {
    if (!this.enabled) return;
    const unitMicro = this.prices.unitMicro(step.stepType);
    const perRecord = getStepType(step.stepType)?.description.cost.per === 'record';
    const entry = perRecord
      ? this.entry(step, `usage:${step.stepRunId}:record`, 'record', records ?? 0, unitMicro, (records ?? 0) * unitMicro)
      : this.entry(step, `usage:${step.stepRunId}:run`, 'run', 1, unitMicro, unitMicro);
    await this.append([entry]);
  }

  /**
   * One agent turn's model tokens (a conversation message): one 'token' row keyed by the message,
   * so a retried save cannot charge twice. Not a step, so no step or run ids; the workflow when the
   * conversation is bound to one.
   */
  async chargeAgentCall(call: {
    userId: string;
    messageId: string;
    agent: string;
    workflowId: string | null;
    stepId: string | null;
    tokens: number;
  }): Promise<void> {
    if (!this.enabled || call.tokens <= 0) return;
    await this.append([
      {
        userId: call.userId,
        kind: 'usage',
        creditsMicro: -this.prices.tokensMicro(call.tokens),
        idempotencyKey: `usage:agent:${call.messageId}`,
        description: `agent:${call.agent}`,
        unit: 'token',
        quantity: call.tokens,
        unitPriceMicro: this.prices.tokensMicro(1),
        workflowId: call.workflowId,
        stepId: call.stepId,
        stepType: null,
      },
    ]);
  }

  balanceMicro(userId: string): Promise<number> {
    return this.ledger.balanceMicro(userId);
  }

  /** How a step type is priced (per run or per record) and its unit price in micro-credits. */
  priceOf(stepType: string): { per: 'run' | 'record'; unitMicro: number } {
    return { per: this.prices.step(stepType).per, unitMicro: this.prices.unitMicro(stepType) };
  }

  /** True when billing is on and the user has no credits left: runs pause at their next batch boundary. */
  async exhausted(userId: string): Promise<boolean> {
    return this.enabled && (await this.ledger.balanceMicro(userId)) <= 0;
  }

  private entry(step: ChargedStep, idempotencyKey: string, unit: UsageUnit, quantity: number, unitPriceMicro: number, micro: number): LedgerEntry {
    return {
      userId: step.userId,
      kind: 'usage',
      creditsMicro: -Math.round(micro),
      idempotencyKey,
      description: step.stepName.slice(0, 200),
      unit,
      quantity,
      unitPriceMicro: Math.round(unitPriceMicro),
      workflowId: step.workflowId,
      stepId: step.stepId,
      stepType: step.stepType,
      runId: step.runId,
      stepRunId: step.stepRunId,
    };
  }

  private async append(entries: LedgerEntry[]): Promise<void> {
    const charged = entries.filter((e) => e.creditsMicro !== 0 && e.quantity);
    if (charged.length) await this.ledger.append(charged);
  }
}
