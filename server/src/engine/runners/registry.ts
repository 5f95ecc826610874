import { aggregateRunner, joinRunner, unionRunner } from './combine';
import { addColumnRunner, deduplicateRunner, filterRunner, limitRunner, renameColumnsRunner, selectColumnsRunner, sortRunner } from './transform';
import type { StepRunner } from './types';

/** The runners, by the id of the step type they implement (`step-types/`). */
export const runners: ReadonlyMap<string, StepRunner> = new Map(
  [filterRunner, selectColumnsRunner, renameColumnsRunner, addColumnRunner, sortRunner, limitRunner, deduplicateRunner, aggregateRunner, joinRunner, unionRunner].map((r) => [r.stepType, r]),
);

/**
 * Catalogue step types without a runner yet, with the kind each will be and the work that brings
 * it. The registry test fails when a step type is in neither list, so a new catalogue entry cannot
 * go unnoticed.
 */
export const pendingRunners: Readonly<Record<string, { kind: StepRunner['kind']; by: string }>> = {
  import_csv: { kind: 'source', by: 'issue 6/8 (run engine): sources' },
  import_folder: { kind: 'source', by: 'issue 6/8 (run engine): sources' },
  import_dataset: { kind: 'source', by: 'issue 6/8 (run engine): sources' },
  code: { kind: 'per-record', by: 'issue 6/8 (run engine): code-step sandbox (engine/sandbox)' },
  ai_prompt: { kind: 'per-record', by: 'issue 6/8 (run engine): AI steps' },
  http_request: { kind: 'per-record', by: 'issue 6/8 (run engine): outbound HTTP client (engine/outbound-http)' },
  export_csv: { kind: 'sink', by: 'issue 6/8 (run engine): sinks' },
  export_parquet: { kind: 'sink', by: 'issue 6/8 (run engine): sinks' },
};

export function getRunner(stepType: string): StepRunner | undefined {
  return runners.get(stepType);
}
