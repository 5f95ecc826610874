import { aggregateRunner, joinRunner, unionRunner } from './combine';
import { aiRunners } from './per-record/ai-steps';
import { codeRunner } from './per-record/code';
import { httpRequestRunner } from './per-record/http-request';
import { sourceRunners } from './sources';
import { reshapeRunners } from './reshape';
import { addColumnRunner, deduplicateRunner, filterRunner, limitRunner, renameColumnsRunner, selectColumnsRunner, sortRunner } from './transform';
import { exportCsvRunner, exportFileRunner, exportParquetRunner, webhookRunner } from './sinks';
import type { StepRunner } from './types';

/** The runners, by the id of the step type they implement (`step-types/`). */
export const runners: ReadonlyMap<string, StepRunner> = new Map(
  [
    ...sourceRunners,
    filterRunner,
    selectColumnsRunner,
    renameColumnsRunner,
    addColumnRunner,
    sortRunner,
    limitRunner,
    deduplicateRunner,
    aggregateRunner,
    joinRunner,
    unionRunner,
    ...reshapeRunners,
    codeRunner,
    httpRequestRunner,
    ...aiRunners,
    exportCsvRunner,
    exportParquetRunner,
    exportFileRunner,
    webhookRunner,
  ].map((r) => [r.stepType, r]),
);

/**
 * Catalogue step types without a runner yet, with the kind each will be and the work that brings
 * it. The registry test fails when a step type is in neither list, so a new catalogue entry cannot
 * go unnoticed.
 */
export const pendingRunners: Readonly<Record<string, { kind: StepRunner['kind']; by: string }>> = {};

export function getRunner(stepType: string): StepRunner | undefined {
  return runners.get(stepType);
}
