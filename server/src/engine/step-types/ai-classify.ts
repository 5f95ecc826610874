import { AI_CACHE_NOTE, AI_CACHE_NOTE_ZH, aiCommonTextsZh, aiConcurrencyParam, aiContinueParam, aiErrorParam, aiModelParam } from './ai-common';
import type { StepType, StepTypeDescription } from './step-type';
import type { JSONSchema7 } from 'ai';
import type { JsonValue } from '../datasets';
import { resolveParams, newColumnName } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import { checkAdded, commonParams, DATA_RULE, dataBlock, inputColumn, valueOf } from '../runners/per-record/ai';
import { asText, checkReferences } from '../runners/per-record/templates';
import { renderPrompt, textParam, isEmptyText, chatRunner, withError } from '../runners/per-record/ai-chat-steps';

const description: StepTypeDescription = {
  id: 'ai_classify',
  name: 'AI classify',
  description:
    'Sort each row into one of your labels (or several) with an AI language model: sentiment, topic, category, intent, priority, language. The answer is always one of the labels you give.',
  category: 'enrich',
  tags: ['ai', 'llm', 'classify', 'categorize', 'label', 'per-record'],
  params: [
    {
      name: 'column',
      type: 'column',
      label: 'Text column',
      help: 'The column whose text is classified. An empty value is not sent and gets no label.',
      required: true,
    },
    {
      name: 'labels',
      type: 'json',
      label: 'Labels',
      help: 'A list of 2 to 100 labels, e.g. ["positive", "negative", "neutral"]. The model may only answer these; any other answer is sent back once to be corrected.',
      required: true,
    },
    {
      name: 'multi_label',
      type: 'boolean',
      label: 'Several labels',
      help: 'Off: exactly one label per row (text). On: every label that applies, as a list (possibly empty).',
      required: false,
      default: false,
    },
    {
      name: 'instructions',
      type: 'string',
      label: 'Instructions',
      help: 'Optional guidance on the labels, e.g. "urgent means the customer cannot work". May use {{var.name}}.',
      required: false,
      default: '',
      max_length: 2000,
    },
    {
      name: 'output_column',
      type: 'string',
      label: 'Label column',
      help: 'The column that receives the label (or the list of labels).',
      required: false,
      default: 'label',
      max_length: 128,
    },
    aiModelParam,
    aiConcurrencyParam,
    aiContinueParam,
    aiErrorParam('label_error'),
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'record', credits: 1, note: `Per row with text, plus the model's token price. ${AI_CACHE_NOTE}` },
  i18n: {
    'zh-CN': {
      name: 'AI 分类',
      description: '用 AI 大语言模型把每一行归入你给出的一个（或多个）标签：情感、主题、类别、意图、优先级、语言。回答总是你给出的标签之一。',
      params: {
        column: { label: '文本列', help: '要分类的文本所在的列。空值不会发送，也没有标签。' },
        labels: {
          label: '标签',
          help: '2 到 100 个标签组成的列表，例如 ["positive", "negative", "neutral"]。模型只能回答这些标签；其他回答会被退回一次要求更正。',
        },
        multi_label: { label: '多个标签', help: '关闭：每行恰好一个标签（文本）。开启：所有适用的标签，以列表保存（可能为空）。' },
        instructions: { label: '说明', help: '可选的标签说明，例如 "urgent 表示客户无法工作"。可以使用 {{var.name}}。' },
        output_column: { label: '标签列', help: '存放标签（或标签列表）的列。' },
        ...aiCommonTextsZh,
      },
      cost_note: `按有文本的行计费，另加模型的 token 费用。${AI_CACHE_NOTE_ZH}`,
    },
  },
};

const MAX_LABELS = 100;

const runner = chatRunner(description, (input, stored, vars) => {
  const { labels: rawLabels, instructions: rawInstructions, ...scalars } = stored;
  const params = resolveParams(description, scalars, vars);
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

export const aiClassify: StepType = { description, runner, cacheable: false, billing: 'ai-tokens', outsideCalls: 'ai' };
