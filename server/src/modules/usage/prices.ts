import type { BillingConfig } from '../../config/config';
import { getStepDescription, stepDescriptions, type CostHint } from '../../engine/step-types';
import { MICRO, toMicro } from './ledger';

/** The units a usage row counts (migration 012's `unit`). */
export type UsageUnit = 'record' | 'run' | 'token' | 'call';

/** What one step type costs: per run or per record, in credits per unit. */
export interface StepPrice {
  stepType: string;
  per: CostHint['per'];
  credits: number;
}

/**
 * Prices, from configuration: a step type's price is STEP_PRICES[type] when set, else the credits of
 * its own cost hint (what the catalogue always showed); AI tokens cost AI_TOKEN_PRICE_PER_1K per 1000.
 * The catalogue, the estimate before a run and the run engine's debits all ask here, so the price
 * shown is the price charged.
 */
export class Prices {
  constructor(private readonly billing: Pick<BillingConfig, 'stepPrices' | 'aiTokenPricePer1k'>) {}

  /** Credits per unit of a step type (0 for a type that no longer exists). */
  credits(stepType: string): number {
    return this.billing.stepPrices[stepType] ?? getStepDescription(stepType)?.cost.credits ?? 0;
  }

  step(stepType: string): StepPrice {
    return { stepType, per: getStepDescription(stepType)?.cost.per ?? 'run', credits: this.credits(stepType) };
  }

  all(): StepPrice[] {
    return stepDescriptions.map((t) => this.step(t.id));
  }

  /** A cost hint with the configured price in place of the type's own. */
  hint(stepType: string, hint: CostHint): CostHint {
    return { ...hint, credits: this.credits(stepType) };
  }

  get aiTokenPricePer1k(): number {
    return this.billing.aiTokenPricePer1k;
  }

  /** Micro-credits for `tokens` AI tokens, rounded once over the batch (a token alone may cost less than a micro-credit). */
  tokensMicro(tokens: number): number {
    return Math.round((tokens * this.billing.aiTokenPricePer1k * MICRO) / 1000);
  }

  /** A step type's unit price in micro-credits. */
  unitMicro(stepType: string): number {
    return toMicro(this.credits(stepType));
  }
}
