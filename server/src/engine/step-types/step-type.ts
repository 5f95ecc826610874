/**
 * A step type is data plus one function (ARCHITECTURE.md, decision 6). This file is the data part:
 * the serialisable description that the catalogue (`/workflow-step-infos`), the parameter forms, the
 * validation of param inputs and the agents all read. The `run` function joins it with the run
 * engine (issue 4/6). Nothing here imports HTTP code.
 */

export type ParamType =
  | 'string'
  | 'number'
  | 'boolean'
  | 'enum'
  | 'column'
  | 'columns'
  | 'expression'
  | 'template'
  | 'file'
  | 'dataset'
  | 'secret'
  | 'json';

export interface ParamSpec {
  /** Key in the step's param inputs. */
  name: string;
  type: ParamType;
  label: string;
  help: string;
  required: boolean;
  default?: unknown;
  /** enum: the allowed values. */
  options?: string[];
  /** number: bounds. */
  min?: number;
  max?: number;
  /** string/template/expression: longest accepted text. */
  max_length?: number;
  /** column/columns: which input the columns come from (0-based; join has two). */
  input_index?: number;
  /** number: whole numbers only (counts, offsets, token limits). */
  integer?: boolean;
  /** columns: must list as many columns as this other param (join's key columns pair up). */
  same_length_as?: string;
}

/** A step type's user-visible texts in another language; anything missing falls back to English. */
export interface StepTypeTexts {
  name: string;
  description: string;
  params?: Record<string, { label: string; help: string }>;
  cost_note?: string;
}

export interface CostHint {
  /** What the cost grows with. */
  per: 'run' | 'record';
  /** Credits per unit, before any model or provider surcharge. */
  credits: number;
  note: string;
}

export interface StepTypeDescription {
  /** Stable id, e.g. "filter"; what a workflow step stores as its type. */
  id: string;
  name: string;
  description: string;
  category: 'source' | 'transform' | 'combine' | 'enrich' | 'output';
  tags: string[];
  params: ParamSpec[];
  /** How many input steps it takes: sources 0..0, most 1..1, join 2..2, union 2..many (max null). */
  inputs: { min: number; max: number | null };
  /** What it produces, e.g. "dataset". */
  outputs: string[];
  cost: CostHint;
  /**
   * Translations of the texts above, keyed by the server's request language. Step type texts are
   * data served by the API (not catalog keys), so they travel with the type they describe.
   */
  i18n?: { 'zh-CN'?: StepTypeTexts };
}
