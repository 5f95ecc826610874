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

export { stepCategories, type CostHint, type ParamSpec, type ParamType, type StepCategory, type StepTypeDescription, type StepTypeTexts } from './step-type';

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
