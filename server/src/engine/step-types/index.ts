import { addColumn } from './add-column';
import { aggregate } from './aggregate';
import { aiPrompt } from './ai-prompt';
import { code } from './code';
import { deduplicate } from './deduplicate';
import { exportCsv } from './export-csv';
import { exportParquet } from './export-parquet';
import { filter } from './filter';
import { httpRequest } from './http-request';
import { importCsv } from './import-csv';
import { importDataset } from './import-dataset';
import { importFolder } from './import-folder';
import { join } from './join';
import { limit } from './limit';
import { renameColumns } from './rename-columns';
import { selectColumns } from './select-columns';
import { sort } from './sort';
import { union } from './union';
import type { StepTypeDescription } from './step-type';

export type { ParamSpec, ParamType, StepTypeDescription, StepTypeTexts, CostHint } from './step-type';

export type StepCategory = StepTypeDescription['category'];

/** Categories in the order a workflow reads: where data comes from, what happens to it, where it goes. */
export const stepCategories: readonly StepCategory[] = ['source', 'transform', 'combine', 'enrich', 'output'];

/**
 * The step registry: every step type the engine provides, in catalogue order. Adding a step type
 * is adding its file and one line here; the catalogue, the param forms and validation follow.
 */
export const stepTypes: StepTypeDescription[] = [
  importCsv,
  importFolder,
  importDataset,
  filter,
  selectColumns,
  renameColumns,
  deduplicate,
  sort,
  limit,
  aggregate,
  addColumn,
  code,
  join,
  union,
  aiPrompt,
  httpRequest,
  exportCsv,
  exportParquet,
];

const byId = new Map(stepTypes.map((type) => [type.id, type]));

export function getStepType(id: string): StepTypeDescription | undefined {
  return byId.get(id);
}
