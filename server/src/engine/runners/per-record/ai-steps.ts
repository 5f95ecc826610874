import { embedMany, type JSONSchema7 } from 'ai';
import type { JsonRecord, JsonValue } from '../../datasets';
import type { ParamValues } from '../../params';
import { expectInputs, RECORD_ID, resolveParams } from '../columns';
import { paramProblem } from '../errors';
import { newColumnName } from '../transform';
import type { AppendedColumn, CachedAnswer, Column, PerRecordRunner, RunContext, Vars } from '../types';
import {
  AI_BATCH_SIZE,
  askChat,
  cacheKey,
  checkAdded,
  columnsOf,
  commonParams,
  DATA_RULE,
  dataBlock,
  inputColumn,
  integerIn,
  numberIn,
  perRecord,
  RecordFailed,
  stopped,
  valueOf,
  withModelRetries,
  type AiCommon,
  type ChatAsk,
} from './ai';
import { asText, checkReferences, renderText, type Scope } from './templates';

/**
 * The AI step types (`step-types/ai-*.ts`) as per-record runners on the engine's checkpointed
 * batches; what they share (retries, repair, cache, usage, data delimiting) is in `ai.ts`.
 * Each appends its answer column(s) and an error column (NULL when the record worked).
 */

// ---- typed columns (ai_prompt's JSON answer, ai_extract's fields) ----

export const FIELD_TYPES = ['text', 'integer', 'number', 'boolean', 'list'] as const;
type FieldType = (typeof FIELD_TYPES)[number];
interface Field {
  name: string;
  type: FieldType;
  description: string;
}
const MAX_FIELDS = 50;
const FIELD_COLUMN_TYPES: Record<FieldType, AppendedColumn['type']> = {
  text: 'VARCHAR',
  integer: 'BIGINT',
  number: 'DOUBLE',
  boolean: 'BOOLEAN',
  list: 'JSON',
};
const FIELD_SCHEMAS: Record<FieldType, JSONSchema7> = {
  text: { type: ['string', 'null'] },
  integer: { type: ['integer', 'null'] },
  number: { type: ['number', 'null'] },
  boolean: { type: ['boolean', 'null'] },
  list: { type: ['array', 'null'], items: { type: 'string' } },
};

function fieldsParam(params: ParamValues, name: string): Field[] {
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

function fieldsSchema(fields: Field[]): JSONSchema7 {
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map((f) => [f.name, { ...FIELD_SCHEMAS[f.type], ...(f.description ? { description: f.description } : {}) }])),
    required: fields.map((f) => f.name),
    additionalProperties: false,
  };
}

/** Null when `value` is an object with exactly these fields, each of its type or null; else what is wrong. */
function checkFields(fields: Field[], value: unknown): string | null {
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

const describeFields = (fields: Field[]) =>
  fields.map((f) => `- ${f.name} (${f.type === 'list' ? 'list of texts' : f.type})${f.description ? `: ${f.description}` : ''}`).join('\n');

// ---- prompts ----

/** A prompt template filled for one record: variables as written, each field's value as a delimited data block. */
function renderPrompt(template: string, scope: Scope): string {
  return renderText(template, scope, (text, reference) => (reference.kind === 'field' ? dataBlock(reference.name, text) : text));
}

function textParam(params: ParamValues, name: string, max: number, required: boolean): string {
  const value = params[name] ?? '';
  if (typeof value !== 'string') throw paramProblem([name], 'server.params.string');
  if (required && !value.trim()) throw paramProblem([name], 'server.params.required');
  if (value.length > max) throw paramProblem([name], 'server.params.maxLength', { limit: max });
  return value;
}

const isEmptyText = (value: JsonValue) => value === null || asText(value).trim() === '';

interface ChatPlan {
  common: AiCommon;
  added: AppendedColumn[];
  /** The call for a record, or null when there is nothing to ask (an empty text): its columns stay NULL. */
  ask(record: JsonRecord, vars: Vars): ChatAsk | null;
  /** The new columns' values from the answer. */
  values(answer: JsonValue): JsonRecord;
}

/** What every AI step shares: one input, its columns kept and the plan's columns appended, fixed batches. */
function appending(stepType: string, plan: (input: Column[], params: ParamValues, vars: Vars | undefined) => { added: AppendedColumn[] }, batchSize: number) {
  return {
    stepType,
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
function chatRunner(stepType: string, plan: (input: Column[], params: ParamValues, vars: Vars | undefined) => ChatPlan): PerRecordRunner {
  return {
    ...appending(stepType, plan, AI_BATCH_SIZE),
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
            step: stepType,
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
          const answer = await askChat(ctx, chat, ask, signal, `record “${id}”`);
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
function paidHere(ctx: RunContext, cached: CachedAnswer): { tokens: [number, number]; paidBy: string } | Record<string, never> {
  return cached.stepRunId === ctx.stepRunId && cached.recordId ? { tokens: [cached.tokensIn, cached.tokensOut], paidBy: cached.recordId } : {};
}

const withError = (common: AiCommon, columns: AppendedColumn[]): AppendedColumn[] => [...columns, { name: common.errorColumn, type: 'VARCHAR' }];

// ---- ai_prompt ----

export const aiPromptRunner = chatRunner('ai_prompt', (input, stored, vars) => {
  const { prompt, output_columns: outputColumns, ...scalars } = stored;
  const params = resolveParams('ai_prompt', scalars, vars);
  const template = textParam({ prompt }, 'prompt', 20_000, true);
  checkReferences(template, input, vars, ['prompt']);
  const common = commonParams(params);
  const temperature = numberIn(params, 'temperature', 0, 2);
  const maxTokens = integerIn(params, 'max_tokens', 1, 16_000);
  const json = params.output_format === 'json';
  if (!json && params.output_format !== 'text') throw paramProblem(['output_format'], 'server.params.enum', { values: 'text, json' });
  const fields = json ? fieldsParam({ output_columns: outputColumns }, 'output_columns') : null;
  const answerColumn = json ? '' : newColumnName(params.output_column, ['output_column']);
  const added = checkAdded(
    input,
    withError(common, fields ? fields.map((f) => ({ name: f.name, type: FIELD_COLUMN_TYPES[f.type] })) : [{ name: answerColumn, type: 'VARCHAR' }]),
    (c) => (c.name === common.errorColumn ? ['error_column'] : fields ? ['output_columns'] : ['output_column']),
  );
  const system = fields
    ? `${DATA_RULE}\nAnswer with only a JSON object with exactly these fields (null when the record does not tell):\n${describeFields(fields)}`
    : `${DATA_RULE}\nAnswer with the answer only.`;
  return {
    common,
    added,
    ask: (record, v) => ({
      system,
      prompt: renderPrompt(template, { record, vars: v }),
      temperature,
      maxTokens,
      ...(fields ? { schema: { json: fieldsSchema(fields), check: (value: unknown) => checkFields(fields, value) } } : {}),
    }),
    values: (answer) => (fields ? pick(fields, answer) : { [answerColumn]: typeof answer === 'string' ? answer : asText(answer) }),
  };
});

function pick(fields: Field[], answer: JsonValue): JsonRecord {
  const object = answer && typeof answer === 'object' && !Array.isArray(answer) ? answer : {};
  return Object.fromEntries(fields.map((f) => [f.name, (object as Record<string, JsonValue>)[f.name] ?? null]));
}

// ---- ai_classify ----

const MAX_LABELS = 100;

export const aiClassifyRunner = chatRunner('ai_classify', (input, stored, vars) => {
  const { labels: rawLabels, instructions: rawInstructions, ...scalars } = stored;
  const params = resolveParams('ai_classify', scalars, vars);
  const column = inputColumn(input, params);
  const common = commonParams(params);
  if (!Array.isArray(rawLabels) || rawLabels.length < 2) throw paramProblem(['labels'], 'server.params.minItems', { limit: 2 });
  if (rawLabels.length > MAX_LABELS) throw paramProblem(['labels'], 'server.params.tooMany', { limit: MAX_LABELS });
  const labels = rawLabels.map((l, i) => {
    if (typeof l !== 'string' || !l.trim() || l.length > 200) throw paramProblem(['labels', i], 'server.params.string');
    return l;
  });
  const duplicate = labels.find((l, i) => labels.indexOf(l) !== i);
  if (duplicate !== undefined) throw paramProblem(['labels'], 'server.params.duplicateValue', { value: duplicate });
  const instructions = textParam({ instructions: rawInstructions }, 'instructions', 2000, false);
  checkReferences(instructions, input, vars, ['instructions']);
  if (typeof params.multi_label !== 'boolean') throw paramProblem(['multi_label'], 'server.params.boolean');
  const multi = params.multi_label;
  const output = newColumnName(params.output_column, ['output_column']);
  const added = checkAdded(input, withError(common, [{ name: output, type: multi ? 'JSON' : 'VARCHAR' }]), (c) => [
    c.name === common.errorColumn ? 'error_column' : 'output_column',
  ]);
  const list = labels.map((l) => `- ${l}`).join('\n');
  const system = multi
    ? `${DATA_RULE}\nClassify the text into every label that applies, from this list only (an empty list when none does):\n${list}\nAnswer with a JSON object {"labels": [...]}.`
    : `${DATA_RULE}\nClassify the text into exactly one label from this list only:\n${list}\nAnswer with a JSON object {"label": "..."}.`;
  const json: JSONSchema7 = multi
    ? {
        type: 'object',
        properties: { labels: { type: 'array', items: { type: 'string', enum: labels }, uniqueItems: true } },
        required: ['labels'],
        additionalProperties: false,
      }
    : { type: 'object', properties: { label: { type: 'string', enum: labels } }, required: ['label'], additionalProperties: false };
  const check = (value: unknown): string | null => {
    const o = value as Record<string, unknown> | null;
    if (!o || typeof o !== 'object') return 'the answer must be a JSON object';
    if (multi) {
      const chosen = o.labels;
      if (!Array.isArray(chosen)) return 'the answer must be {"labels": [...]}';
      const bad = chosen.find((l) => typeof l !== 'string' || !labels.includes(l));
      return bad === undefined ? null : `${JSON.stringify(bad).slice(0, 100)} is not one of the labels: ${labels.join(', ')}`;
    }
    return typeof o.label === 'string' && labels.includes(o.label)
      ? null
      : `${JSON.stringify(o.label ?? null).slice(0, 100)} is not one of the labels: ${labels.join(', ')}`;
  };
  return {
    common,
    added,
    ask: (record, v) => {
      const text = valueOf(record, column);
      if (isEmptyText(text)) return null;
      const extra = instructions.trim() ? `${renderPrompt(instructions, { record, vars: v })}\n\n` : '';
      return {
        system,
        prompt: `${extra}Text to classify:\n${dataBlock(column, asText(text))}`,
        temperature: 0,
        maxTokens: 200 + 20 * labels.length,
        schema: { json, check },
      };
    },
    values: (answer) => {
      const o = (answer ?? {}) as Record<string, JsonValue>;
      return { [output]: multi ? [...new Set((o.labels as string[] | undefined) ?? [])] : (o.label ?? null) };
    },
  };
});

// ---- ai_extract ----

export const aiExtractRunner = chatRunner('ai_extract', (input, stored, vars) => {
  const { fields: rawFields, instructions: rawInstructions, ...scalars } = stored;
  const params = resolveParams('ai_extract', scalars, vars);
  const column = inputColumn(input, params);
  const common = commonParams(params);
  const fields = fieldsParam({ fields: rawFields }, 'fields');
  const instructions = textParam({ instructions: rawInstructions }, 'instructions', 2000, false);
  checkReferences(instructions, input, vars, ['instructions']);
  const added = checkAdded(
    input,
    withError(
      common,
      fields.map((f) => ({ name: f.name, type: FIELD_COLUMN_TYPES[f.type] })),
    ),
    (c) => [c.name === common.errorColumn ? 'error_column' : 'fields'],
  );
  const system = `${DATA_RULE}\nExtract these fields from the text; a field the text does not state is null (never guess):\n${describeFields(fields)}\nAnswer with only a JSON object with exactly these fields.`;
  const json = fieldsSchema(fields);
  return {
    common,
    added,
    ask: (record, v) => {
      const text = valueOf(record, column);
      if (isEmptyText(text)) return null;
      const extra = instructions.trim() ? `${renderPrompt(instructions, { record, vars: v })}\n\n` : '';
      return {
        system,
        prompt: `${extra}Text:\n${dataBlock(column, asText(text))}`,
        temperature: 0,
        maxTokens: 4000,
        schema: { json, check: (value: unknown) => checkFields(fields, value) },
      };
    },
    values: (answer) => pick(fields, answer),
  };
});

// ---- ai_summarize ----

export const SUMMARY_LENGTHS: Record<string, { words: string; maxTokens: number }> = {
  short: { words: 'one sentence', maxTokens: 120 },
  medium: { words: 'about three sentences', maxTokens: 300 },
  long: { words: 'one paragraph of at most 150 words', maxTokens: 600 },
};
const SUMMARY_STYLES: Record<string, string> = {
  plain: 'Write plain prose.',
  bullet_points: 'Write short bullet points, one per line, each starting with "- ".',
  headline: 'Write it as a headline, without a final full stop.',
};

export const aiSummarizeRunner = chatRunner('ai_summarize', (input, stored, vars) => {
  const params = resolveParams('ai_summarize', stored, vars);
  const column = inputColumn(input, params);
  const common = commonParams(params);
  const length = SUMMARY_LENGTHS[String(params.length)];
  if (!length) throw paramProblem(['length'], 'server.params.enum', { values: Object.keys(SUMMARY_LENGTHS).join(', ') });
  const style = SUMMARY_STYLES[String(params.style)];
  if (!style) throw paramProblem(['style'], 'server.params.enum', { values: Object.keys(SUMMARY_STYLES).join(', ') });
  const language = textParam(params, 'language', 100, false).trim();
  const output = newColumnName(params.output_column, ['output_column']);
  const added = checkAdded(input, withError(common, [{ name: output, type: 'VARCHAR' }]), (c) => [
    c.name === common.errorColumn ? 'error_column' : 'output_column',
  ]);
  const system =
    `${DATA_RULE}\nSummarise the text in ${length.words}. ${style} ` +
    `${language ? `Write the summary in ${language}.` : 'Write the summary in the language of the text.'} Answer with the summary only.`;
  return {
    common,
    added,
    ask: (record) => {
      const text = valueOf(record, column);
      if (isEmptyText(text)) return null;
      return { system, prompt: `Text to summarise:\n${dataBlock(column, asText(text))}`, temperature: 0.2, maxTokens: length.maxTokens };
    },
    values: (answer) => ({ [output]: typeof answer === 'string' ? answer.trim() : asText(answer) }),
  };
});

// ---- ai_embed ----

/** Records per batch of the embed step, all embedded in one call (minus empty and cached ones). */
export const EMBED_BATCH_SIZE = 100;
/** Longest text sent to the embedding model; longer ones are cut (models refuse or truncate them anyway). */
export const MAX_EMBED_CHARS = 32_000;

function embedPlan(input: Column[], stored: ParamValues, vars: Vars | undefined) {
  const params = resolveParams('ai_embed', stored, vars);
  const column = inputColumn(input, params);
  const common = commonParams(params);
  const model = textParam(params, 'model', 200, true).trim();
  const output = newColumnName(params.output_column, ['output_column']);
  const added = checkAdded(input, withError(common, [{ name: output, type: 'DOUBLE[]' }]), (c) => [
    c.name === common.errorColumn ? 'error_column' : 'output_column',
  ]);
  return { column, common, model, output, added };
}

export const aiEmbedRunner: PerRecordRunner = {
  ...appending('ai_embed', embedPlan, EMBED_BATCH_SIZE),
  async processBatch(ctx, records, params) {
    if (ctx.signal.aborted) throw stopped(ctx.signal);
    const plan = embedPlan(columnsOf(records), params, ctx.vars);
    const embedding = ctx.ai.embedding(plan.model);
    if (records.length === 0) return { rows: [] };
    const texts = new Map<string, string>();
    for (const record of records) {
      const value = valueOf(record, plan.column);
      if (!isEmptyText(value)) texts.set(String(record[RECORD_ID]), asText(value).slice(0, MAX_EMBED_CHARS));
    }
    const keyOf = (text: string) => cacheKey({ step: 'ai_embed', model: embedding.id, text });
    const known = await ctx.ai.cache.get([...new Set([...texts.values()].map(keyOf))]);
    const missing = [...new Set([...texts.values()].filter((t) => !known.has(keyOf(t))))];
    const vectors = new Map<string, number[]>();
    // Per text, the tokens this step run pays and the record paying them: fresh texts (the first
    // record with each), and cached ones it paid for before a crash (the record that paid then).
    const paid = new Map<string, { tokens: number; recordId: string }>();
    for (const text of texts.values()) {
      const cached = known.get(keyOf(text));
      if (!cached || !Array.isArray(cached.answer)) continue;
      vectors.set(text, cached.answer as number[]);
      const here = paidHere(ctx, cached);
      if (here.tokens?.[0]) paid.set(text, { tokens: here.tokens[0], recordId: here.paidBy });
    }
    // One call for the batch's new texts; its tokens are shared among their records by length.
    let failure: RecordFailed | null = null;
    if (missing.length) {
      try {
        const result = await withModelRetries(ctx, ctx.signal, `embedding ${missing.length} text(s)`, (abortSignal) =>
          embedMany({ model: embedding.model, values: missing, maxRetries: 0, abortSignal, maxParallelCalls: 1 }),
        );
        result.embeddings.forEach((vector, i) => vectors.set(missing[i], vector));
        // The call's tokens, shared among its texts by length.
        const tokens = result.usage?.tokens ?? 0;
        const chars = missing.reduce((sum, t) => sum + t.length, 0) || 1;
        const firstRecord = new Map<string, string>();
        for (const [id, text] of texts) if (!firstRecord.has(text)) firstRecord.set(text, id);
        for (const text of missing) paid.set(text, { tokens: Math.round((tokens * text.length) / chars), recordId: firstRecord.get(text)! });
        await ctx.ai.cache.put(
          missing.map((text, i) => ({
            key: keyOf(text),
            modelId: embedding.id,
            answer: result.embeddings[i],
            stepRunId: ctx.stepRunId,
            recordId: paid.get(text)!.recordId,
            tokensIn: paid.get(text)!.tokens,
            tokensOut: 0,
          })),
        );
      } catch (err) {
        if (!(err instanceof RecordFailed)) throw err;
        failure = err;
      }
    }
    const output = await perRecord(ctx, records, plan.common, [{ name: plan.output, type: 'DOUBLE[]' }], async (record) => {
      const id = String(record[RECORD_ID]);
      const text = texts.get(id);
      if (text === undefined) return { values: {} };
      const vector = vectors.get(text);
      if (!vector) throw failure ?? new RecordFailed('The embedding model answered no vector for this text');
      // A text several records share is paid once, under the paying record's key.
      const payer = paid.get(text);
      return { values: { [plan.output]: vector }, ...(payer?.tokens ? { tokens: [payer.tokens, 0] as [number, number], paidBy: payer.recordId } : {}) };
    });
    return output;
  },
};

export const aiRunners: PerRecordRunner[] = [aiPromptRunner, aiClassifyRunner, aiExtractRunner, aiSummarizeRunner, aiEmbedRunner];
