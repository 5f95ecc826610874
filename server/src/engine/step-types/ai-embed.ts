import { AI_CACHE_NOTE, AI_CACHE_NOTE_ZH, aiCommonTextsZh, aiContinueParam, aiErrorParam } from './ai-common';
import type { StepType, StepTypeDescription } from './step-type';
import { embedMany } from 'ai';
import type { ParamValues } from '../params';
import { RECORD_ID, resolveParams, newColumnName } from '../runners/columns';
import type { Column, PerRecordRunner, Vars } from '../runners/types';
import {
  cacheKey,
  checkAdded,
  columnsOf,
  commonParams,
  inputColumn,
  perRecord,
  RecordFailed,
  stopped,
  valueOf,
  withModelRetries,
} from '../runners/per-record/ai';
import { asText } from '../runners/per-record/templates';
import { textParam, isEmptyText, appending, paidHere, withError } from '../runners/per-record/ai-chat-steps';

const description: StepTypeDescription = {
  id: 'ai_embed',
  name: 'AI embed text',
  description:
    'Turn the text of each row into an embedding vector (a list of numbers) with an AI embedding model, for similarity search, semantic search, clustering, recommendations or finding near-duplicate texts: the vectors of texts about the same thing lie close together.',
  category: 'enrich',
  tags: ['ai', 'embedding', 'vector', 'semantic', 'similarity', 'per-record'],
  params: [
    {
      name: 'column',
      type: 'column',
      label: 'Text column',
      help: 'The column whose text is embedded (at most 32,000 characters of it). An empty value is not sent and gets no vector.',
      required: true,
    },
    {
      name: 'model',
      type: 'string',
      label: 'Embedding model',
      help: "The embedding model's name on the server's AI service (LLM_BASE_URL), e.g. text-embedding-3-small or nomic-embed-text.",
      required: true,
      default: 'text-embedding-3-small',
      max_length: 200,
    },
    {
      name: 'output_column',
      type: 'string',
      label: 'Vector column',
      help: 'The column that receives the vector, a list of numbers (DOUBLE[]).',
      required: false,
      default: 'embedding',
      max_length: 128,
    },
    aiContinueParam,
    aiErrorParam('embedding_error'),
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'record', credits: 0.05, note: `Per row with text; rows are sent 100 at a time. ${AI_CACHE_NOTE}` },
  i18n: {
    'zh-CN': {
      name: 'AI 文本向量',
      description: '用 AI 嵌入模型把每一行的文本转换成嵌入向量（一组数字），用于相似度搜索、语义搜索、聚类、推荐或按语义去重：意思相同的文本，其向量彼此接近。',
      params: {
        column: { label: '文本列', help: '要转换的文本所在的列（最多取其前 32,000 个字符）。空值不会发送，也没有向量。' },
        model: { label: '嵌入模型', help: '服务器 AI 服务（LLM_BASE_URL）上的嵌入模型名称，例如 text-embedding-3-small 或 nomic-embed-text。' },
        output_column: { label: '向量列', help: '存放向量的列，一组数字（DOUBLE[]）。' },
        continue_on_error: aiCommonTextsZh.continue_on_error,
        error_column: aiCommonTextsZh.error_column,
      },
      cost_note: `按有文本的行计费；每次发送 100 行。${AI_CACHE_NOTE_ZH}`,
    },
  },
};

/** Records per batch of the embed step, all embedded in one call (minus empty and cached ones). */
export const EMBED_BATCH_SIZE = 100;
/** Longest text sent to the embedding model; longer ones are cut (models refuse or truncate them anyway). */
export const MAX_EMBED_CHARS = 32_000;

function embedPlan(input: Column[], stored: ParamValues, vars: Vars | undefined) {
  const params = resolveParams(description, stored, vars);
  const column = inputColumn(input, params);
  const common = commonParams(params);
  const model = textParam(params, 'model', 200, true).trim();
  const output = newColumnName(params.output_column, ['output_column']);
  const added = checkAdded(input, withError(common, [{ name: output, type: 'DOUBLE[]' }]), (c) => [
    c.name === common.errorColumn ? 'error_column' : 'output_column',
  ]);
  return { column, common, model, output, added };
}

const runner: PerRecordRunner = {
  ...appending(embedPlan, EMBED_BATCH_SIZE),
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
        const result = await withModelRetries(ctx, ctx.signal, { key: 'server.runLog.embedding', values: { count: missing.length } }, (abortSignal) =>
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

export const aiEmbed: StepType = { description, runner, cacheable: false, billing: 'ai-tokens', outsideCalls: 'ai' };
