import { addColumn } from './add-column';
import { aggregate } from './aggregate';
import { aiClassify } from './ai-classify';
import { aiEmbed } from './ai-embed';
import { aiExtract } from './ai-extract';
import { aiPrompt } from './ai-prompt';
import { aiSummarize } from './ai-summarize';
import { code } from './code';
import { deduplicate } from './deduplicate';
import { exportCsv } from './export-csv';
import { exportFile } from './export-file';
import { exportParquet } from './export-parquet';
import { filter } from './filter';
import { httpRequest } from './http-request';
import { importCsv } from './import-csv';
import { importDataset } from './import-dataset';
import { importFile } from './import-file';
import { importFolder } from './import-folder';
import { importHttpJson } from './import-http-json';
import { join } from './join';
import { limit } from './limit';
import { renameColumns } from './rename-columns';
import { selectColumns } from './select-columns';
import { sort } from './sort';
import { tableInput } from './table-input';
import { topNPerGroup } from './top-n-per-group';
import { union } from './union';
import { webhook } from './webhook';
import { castColumns } from './cast-columns';
import { dateParts } from './date-parts';
import { fillNulls } from './fill-nulls';
import { parseJson } from './parse-json';
import { pivot } from './pivot';
import { regexExtract } from './regex-extract';
import { reorderColumns } from './reorder-columns';
import { sample } from './sample';
import { splitToRows } from './split-to-rows';
import { unpivot } from './unpivot';
import type { StepType, StepTypeDescription } from './step-type';

export {
  stepCategories,
  type CostHint,
  type EstimateLookup,
  type OutsideCalls,
  type ParamSpec,
  type ParamType,
  type StepBilling,
  type StepCategory,
  type StepType,
  type StepTypeDescription,
  type StepTypeTexts,
} from './step-type';

/**
 * The step registry: every step type the engine provides, in catalogue order. Adding a step type
 * is adding its module and one line here; the catalogue, the param forms, validation, the run
 * engine, billing and docs/steps.md follow.
 */
export const stepTypes: readonly StepType[] = [
  importCsv,
  importFile,
  importFolder,
  importDataset,
  tableInput,
  importHttpJson,
  filter,
  selectColumns,
  renameColumns,
  deduplicate,
  reorderColumns,
  castColumns,
  fillNulls,
  sort,
  limit,
  topNPerGroup,
  sample,
  aggregate,
  pivot,
  unpivot,
  addColumn,
  splitToRows,
  regexExtract,
  parseJson,
  dateParts,
  code,
  join,
  union,
  aiPrompt,
  aiClassify,
  aiExtract,
  aiSummarize,
  aiEmbed,
  httpRequest,
  exportCsv,
  exportParquet,
  exportFile,
  webhook,
];

const byId = new Map(stepTypes.map((type) => [type.description.id, type]));

export function getStepType(id: string): StepType | undefined {
  return byId.get(id);
}

/** The served description of a step type (what `/workflow-step-infos` answers), by id. */
export function getStepDescription(id: string): StepTypeDescription | undefined {
  return byId.get(id)?.description;
}

/** Every step type's served description, in catalogue order. */
export const stepDescriptions: readonly StepTypeDescription[] = stepTypes.map((type) => type.description);
