/**
 * A step type is one module (ARCHITECTURE.md, decision 6): `step-types/<id>.ts` exports one
 * `StepType`, its serialisable description (what the catalogue `/workflow-step-infos`, the
 * parameter forms, the validation of param inputs and the agents read) beside its runner (how it
 * runs) and the facts the run engine and billing need. `step-types/index.ts` registers it.
 * Nothing here imports HTTP code.
 *
 * The shapes the API also serves (params, categories, inputs, cost) are declared once, here, as
 * TypeBox schemas: their static types are the engine's types, and the catalogue's API schemas
 * (`modules/step-infos/step-infos.schemas.ts`) are built from them.
 */
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../../lib/typebox';
import type { ParamValues } from '../params';
import type { StepRunner } from '../runners/types';

/**
 * `expression` is a SQL expression over the input's columns (filter conditions, formula columns),
 * parsed and checked by `engine/expressions`; `code` is JavaScript source (the code step), which
 * only its sandbox reads. `file` and `folder` name one of the user's own files or folders by id,
 * `dataset` a dataset. `sort_keys` is a list of columns each with its own direction: an item is a
 * column name (ordered in the step's default direction) or `{"column", "direction"}` with
 * direction `ascending` or `descending` (SORT_KEYS).
 */
export const ParamType = StringEnum([
  'string',
  'number',
  'boolean',
  'enum',
  'column',
  'columns',
  'sort_keys',
  'expression',
  'code',
  'template',
  'file',
  'folder',
  'dataset',
  'secret',
  'json',
]);
export type ParamType = Static<typeof ParamType>;

/** One field of the objects a `json` param lists (ParamSpec.fields): what the form's row shows for it. */
export const ParamField = Type.Object({
  name: Type.String({ description: 'Key in each object' }),
  kind: StringEnum(['column', 'enum', 'text', 'number', 'value'], {
    description:
      "column: one of the input's columns; enum: one of `options`; text: free text; number: a number; value: a value of the type of the column `type_from` names (a number for a number column, true/false for a boolean one, else text)",
  }),
  label: Type.String(),
  options: Type.Optional(Type.Array(Type.String(), { description: 'enum: the allowed values' })),
  /** column: a value that is not a column but allowed (count's "*"). */
  also: Type.Optional(Type.Array(Type.String(), { description: 'column: values allowed besides the columns, e.g. "*"' })),
  type_from: Type.Optional(Type.String({ description: 'value: the field naming the column whose type the value takes' })),
  required: Type.Boolean(),
});
export type ParamField = Static<typeof ParamField>;

export const ParamSpec = Type.Object({
  name: Type.String({ description: "Key in the step's param_inputs" }),
  type: ParamType,
  label: Type.String(),
  help: Type.String(),
  required: Type.Boolean(),
  default: Type.Optional(Type.Unknown({ description: 'Value a new step starts with' })),
  options: Type.Optional(Type.Array(Type.String(), { description: 'enum: the allowed values' })),
  min: Type.Optional(Type.Number({ description: 'number: lower bound' })),
  max: Type.Optional(Type.Number({ description: 'number: upper bound' })),
  integer: Type.Optional(Type.Boolean({ description: 'number: whole numbers only (counts, offsets, token limits)' })),
  max_length: Type.Optional(Type.Integer({ description: 'string/template/expression/code: longest accepted text' })),
  input_index: Type.Optional(Type.Integer({ description: 'column/columns: which input (0-based) the columns come from; join has two' })),
  same_length_as: Type.Optional(Type.String({ description: "columns: must list as many columns as this param (join's key columns pair up)" })),
  accept: Type.Optional(
    Type.Array(Type.String({ pattern: '^\\.[a-z0-9]+$' }), {
      description: 'file: the name endings (lower case, e.g. ".csv") of the files the step reads; absent: any file',
    }),
  ),
  fields: Type.Optional(
    Type.Array(ParamField, {
      description: 'json: the value is a list of objects with these fields (an aggregation: column, function, name); the form shows one row per object',
    }),
  ),
  values_of: Type.Optional(
    Type.String({
      description: "json: a list of values of the column the named param holds; the form offers them from the input's data (a pivot's new columns)",
    }),
  ),
  shape: Type.Optional(
    StringEnum(['list', 'map'], {
      description:
        'json with fields: list (the default) of objects; map: one object whose keys are the first field and values the second (a rename: old name → new name)',
    }),
  ),
});
export type ParamSpec = Static<typeof ParamSpec>;

/** Categories in the order a workflow reads: where data comes from, what happens to it, where it goes. */
export const stepCategories = ['source', 'transform', 'combine', 'enrich', 'output'] as const;
export const StepCategory = StringEnum([...stepCategories]);
export type StepCategory = Static<typeof StepCategory>;

/** How many input steps a type takes: sources 0..0, most 1..1, join 2..2, union 2..many. */
export const StepInputs = Type.Object({ min: Type.Integer(), max: Type.Union([Type.Integer(), Type.Null()], { description: 'null: any number' }) });
export type StepInputs = Static<typeof StepInputs>;

export const CostHint = Type.Object({
  per: StringEnum(['run', 'record'], { description: 'What the cost grows with' }),
  credits: Type.Number({ description: 'Credits per unit, before any model or provider surcharge' }),
  note: Type.String(),
});
export type CostHint = Static<typeof CostHint>;

/** A step type's user-visible texts in another language; anything missing falls back to English. */
export interface StepTypeTexts {
  name: string;
  description: string;
  params?: Record<string, { label: string; help: string; /** Labels of a json param's fields, by field name. */ fields?: Record<string, string> }>;
  cost_note?: string;
}

export interface StepTypeDescription {
  /** Stable id, e.g. "filter"; what a workflow step stores as its type. */
  id: string;
  name: string;
  description: string;
  category: StepCategory;
  tags: string[];
  params: ParamSpec[];
  inputs: StepInputs;
  /** What it produces, e.g. "dataset". */
  outputs: string[];
  cost: CostHint;
  /**
   * Translations of the texts above, keyed by the server's request language. Step type texts are
   * data served by the API (not catalog keys), so they travel with the type they describe.
   */
  i18n?: { 'zh-CN'?: StepTypeTexts };
}

/**
 * How a step's work is charged (`modules/usage/usage-charges.ts`), beside the price its `cost`
 * shows: `run` once per run; `records` per record (per-record steps: per record of each finished
 * batch, or per outside call when they report calls); `ai-tokens` per record the model answered
 * (a cached answer is free) plus the tokens it used.
 */
export type StepBilling = 'run' | 'records' | 'ai-tokens';

/**
 * What a step calls outside this server while it runs: `http` (an API, a webhook), `ai` (a model
 * provider, whose answers the run engine caches and prunes per owner), or `none`.
 */
export type OutsideCalls = 'none' | 'http' | 'ai';

/** What an estimate may look up about the owner's data (the run engine answers, owner-checked). */
export interface EstimateLookup {
  /** A dataset's record count; null when it is not the owner's, missing or not counted yet. */
  datasetRowCount(datasetId: string): Promise<number | null>;
  /**
   * A data file's records read as the format its name tells (`format`: csv, tsv, json, jsonl,
   * parquet), counted when it was uploaded or first asked about; null when it is not the owner's,
   * missing, or cannot be counted cheaply (Excel, too large, not well-formed).
   */
  fileRowCount(fileId: string): Promise<{ rows: number; format: string } | null>;
}

/**
 * One step type: the description the API serves as it is (`description`, data only, never
 * anything below it), and what the engine and billing read. Adding a step type is one module
 * exporting this and one line in `step-types/index.ts`.
 */
export interface StepType {
  readonly description: StepTypeDescription;
  /** How it runs: `kind` (sql, per-record, source, sink), its output columns and its SQL or `run` (runners/types.ts). */
  readonly runner: StepRunner;
  /**
   * Deterministic: an equal earlier step run (same type, version, params, variables, inputs and
   * sample) may be reused instead of running again. False for steps whose answer may change
   * between runs (a folder's files, an API, a model) or that send something (sinks).
   */
  readonly cacheable: boolean;
  readonly billing: StepBilling;
  readonly outsideCalls: OutsideCalls;
  /**
   * Before a run, when no earlier output tells: how many records it will produce from its params
   * alone (a typed-in table's rows, a chosen dataset's count), or null when only running tells.
   */
  estimateOutputRecords?(params: ParamValues, lookup: EstimateLookup): Promise<number | null>;
}

/** The directions a `sort_keys` item may carry, and the most items one may hold. */
export const SORT_KEYS = { directions: ['ascending', 'descending'] as const, maxItems: 100 };
export type SortDirection = (typeof SORT_KEYS.directions)[number];
