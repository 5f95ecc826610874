import type { JSONSchema7 } from 'ai';
import type { JsonRecord, JsonValue } from '../../datasets';
import type { ParamValues } from '../../params';
import type { StepTypeDescription } from '../../step-types/step-type';
import { expectInputs, RECORD_ID } from '../columns';
import { paramProblem } from '../errors';
import { newColumnName } from '../columns';
import type { AppendedColumn, CachedAnswer, Column, PerRecordRunner, RunContext, Vars } from '../types';
import { AI_BATCH_SIZE, askChat, cacheKey, columnsOf, dataBlock, perRecord, stopped, type AiCommon, type ChatAsk } from './ai';
import { asText, renderText, type Scope } from './templates';

/**
 * What the AI step types (`step-types/ai-*.ts`) share as per-record runners on the engine's
 * checkpointed batches: typed answer fields, prompts, the chat runner (one cached-or-asked answer
 * per record). Model calls (retries, repair, cache, usage, data delimiting) are in `ai.ts`. Each
 * step appends its answer column(s) and an error column (NULL when the record worked).
 */

// ---- typed columns (ai_prompt's JSON answer, ai_extract's fields) ----

export const FIELD_TYPES = ['text', 'integer', 'number', 'boolean', 'list'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export interface Field {
  name: string;
  type: FieldType;
  description: string;
}
export const MAX_FIELDS = 50;
export const FIELD_COLUMN_TYPES: Record<FieldType, AppendedColumn['type']> = {
  text: 'VARCHAR',
  integer: 'BIGINT',
  number: 'DOUBLE',
  boolean: 'BOOLEAN',
  list: 'JSON',
};
export const FIELD_SCHEMAS: Record<FieldType, JSONSchema7> = {
  text: { type: ['string', 'null'] },
  integer: { type: ['integer', 'null'] },
  number: { type: ['number', 'null'] },
  boolean: { type: ['boolean', 'null'] },
  list: { type: ['array', 'null'], items: { type: 'string' } },
};

export function fieldsParam(params: ParamValues, name: string): Field[] {
  const value = params[name];
  if (!Array.isArray(value) || value.length === 0) throw paramProblem([name], 'server.params.required');
  if (value.length > MAX_FIELDS) throw paramProblem([name], 'server.params.tooMany', { limit: MAX_FIELDS });
  return value.map((item, i) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw paramProblem([name, i], 'server.params.json');
    const { name: column, type = 'text', description = '' } = item as Record<string, unknown>;
    const checked = newColumnName(column, [name, i, 'name']);
    if (typeof type !== 'string' || !(FIELD_TYPES as readonly string[]).includes(type))
      throw paramProblem([name, i, 'type'], 'server.params.enum', { values: FIELD_TYPES.join(', ') });
    if (typeof description !== 'string' || description.length > 1000) throw paramProblem([name, i, 'description'], 'server.params.string');
    return { name: checked, type: type as FieldType, description };
  });
}

export function fieldsSchema(fields: Field[]): JSONSchema7 {
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map((f) => [f.name, { ...FIELD_SCHEMAS[f.type], ...(f.description ? { description: f.description } : {}) }])),
    required: fields.map((f) => f.name),
    additionalProperties: false,
  };
}

/** Null when `value` is an object with exactly these fields, each of its type or null; else what is wrong. */
export function checkFields(fields: Field[], value: unknown): string | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'the answer must be a JSON object';
  const object = value as Record<string, unknown>;
  const extra = Object.keys(object).filter((k) => !fields.some((f) => f.name === k));
  if (extra.length) return `unexpected field(s): ${extra.join(', ')}`;
  for (const f of fields) {
    if (!Object.prototype.hasOwnProperty.call(object, f.name)) return `the field "${f.name}" is missing`;
    const v = object[f.name];
    if (v === null) continue;
    const ok =
      f.type === 'text'
        ? typeof v === 'string'
        : f.type === 'integer'
          ? typeof v === 'number' && Number.isInteger(v)
          : f.type === 'number'
            ? typeof v === 'number' && Number.isFinite(v)
            : f.type === 'boolean'
              ? typeof v === 'boolean'
              : Array.isArray(v) && v.every((x) => typeof x === 'string');
    if (!ok)
      return `the field "${f.name}" must be ${f.type === 'list' ? 'a list of texts' : f.type === 'integer' ? 'a whole number' : `a ${f.type}`} or null, not ${JSON.stringify(v).slice(0, 100)}`;
  }
  return null;
}

export const describeFields = (fields: Field[]) =>
  fields.map((f) => `- ${f.name} (${f.type === 'list' ? 'list of texts' : f.type})${f.description ? `: ${f.description}` : ''}`).join('\n');

/** The answer's fields, in the listed order; a field the answer lacks is null. */
export function pick(fields: Field[], answer: JsonValue): JsonRecord {
  const object = answer && typeof answer === 'object' && !Array.isArray(answer) ? answer : {};
  return Object.fromEntries(fields.map((f) => [f.name, (object as Record<string, JsonValue>)[f.name] ?? null]));
}

// ---- prompts ----

/** A prompt template filled for one record: variables as written, each field's value as a delimited data block. */
export function renderPrompt(template: string, scope: Scope): string {
  return renderText(template, scope, (text, reference) => (reference.kind === 'field' ? dataBlock(reference.name, text) : text));
}

export function textParam(params: ParamValues, name: string, max: number, required: boolean): string {
  const value = params[name] ?? '';
  if (typeof value !== 'string') throw paramProblem([name], 'server.params.string');
  if (required && !value.trim()) throw paramProblem([name], 'server.params.required');
  if (value.length > max) throw paramProblem([name], 'server.params.maxLength', { limit: max });
  return value;
}

export const isEmptyText = (value: JsonValue) => value === null || asText(value).trim() === '';

export interface ChatPlan {
  common: AiCommon;
  added: AppendedColumn[];
  /** The call for a record, or null when there is nothing to ask (an empty text): its columns stay NULL. */
  ask(record: JsonRecord, vars: Vars): ChatAsk | null;
  /** The new columns' values from the answer. */
  values(answer: JsonValue): JsonRecord;
}

/** What every AI step shares: one input, its columns kept and the plan's columns appended, fixed batches. */
export function appending(plan: (input: Column[], params: ParamValues, vars: Vars | undefined) => { added: AppendedColumn[] }, batchSize: number) {
  return {
    kind: 'per-record' as const,
    output: 'append' as const,
    outputColumns(inputs: Column[][], params: ParamValues, vars?: Vars) {
      expectInputs(inputs, 1, 1);
      return [...inputs[0], ...plan(inputs[0], params, vars).added];
    },
    appendedColumns: (input: Column[], params: ParamValues, vars?: Vars) => plan(input, params, vars).added,
    batchSize: () => batchSize,
  };
}

/** A chat runner: plan from the params, one cached-or-asked answer per record. */
export function chatRunner(
  description: StepTypeDescription,
  plan: (input: Column[], params: ParamValues, vars: Vars | undefined) => ChatPlan,
): PerRecordRunner {
  return {
    ...appending(plan, AI_BATCH_SIZE),
    // Its records share the step run's concurrency (perRecord), so the next batch fills the slots
    // this one's slowest answers leave free.
    overlapBatches: true,
    async processBatch(ctx: RunContext, records, params) {
      if (ctx.signal.aborted) throw stopped(ctx.signal);
      const p = plan(columnsOf(records), params, ctx.vars);
      // Without a model the step fails here, before any record is called.
      const chat = ctx.ai.chat(p.common.model ?? undefined);
      if (records.length === 0) return { rows: [] };
      return perRecord(
        ctx,
        records,
        p.common,
        p.added.filter((c) => c.name !== p.common.errorColumn),
        async (record, signal) => {
          const ask = p.ask(record, ctx.vars);
          if (!ask) return { values: {} };
          const key = cacheKey({
            step: description.id,
            model: chat.id,
            system: ask.system,
            prompt: ask.prompt,
            schema: ask.schema?.json ?? null,
            temperature: ask.temperature,
            maxTokens: ask.maxTokens,
          });
          const cached = (await ctx.ai.cache.get([key])).get(key);
          if (cached !== undefined) return { values: p.values(cached.answer), ...paidHere(ctx, cached) };
          const id = String(record[RECORD_ID]);
          const answer = await askChat(ctx, chat, ask, signal, { key: 'server.runLog.record', values: { id } });
          await ctx.ai.cache.put([
            { key, modelId: chat.id, answer: answer.value, stepRunId: ctx.stepRunId, recordId: id, tokensIn: answer.tokensIn, tokensOut: answer.tokensOut },
          ]);
          return { values: p.values(answer.value), tokens: [answer.tokensIn, answer.tokensOut] };
        },
      );
    },
  };
}

/**
 * The tokens of a cached answer that this very step run paid for (its batch was redone after a
 * crash before its usage was stored): recorded again under the paying record's key, they count
 * once. An answer another run paid for costs nothing.
 */
export function paidHere(ctx: RunContext, cached: CachedAnswer): { tokens: [number, number]; paidBy: string } | Record<string, never> {
  return cached.stepRunId === ctx.stepRunId && cached.recordId ? { tokens: [cached.tokensIn, cached.tokensOut], paidBy: cached.recordId } : {};
}

export const withError = (common: AiCommon, columns: AppendedColumn[]): AppendedColumn[] => [...columns, { name: common.errorColumn, type: 'VARCHAR' }];
