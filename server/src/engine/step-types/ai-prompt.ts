import { AI_CACHE_NOTE, AI_CACHE_NOTE_ZH, aiCommonTextsZh, aiConcurrencyParam, aiContinueParam, aiErrorParam, aiModelParam } from './ai-common';
import type { StepType, StepTypeDescription } from './step-type';
import { resolveParams, newColumnName } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import { checkAdded, commonParams, DATA_RULE, integerIn, numberIn } from '../runners/per-record/ai';
import { asText, checkReferences } from '../runners/per-record/templates';
import {
  FIELD_COLUMN_TYPES,
  fieldsParam,
  fieldsSchema,
  checkFields,
  describeFields,
  renderPrompt,
  textParam,
  chatRunner,
  withError,
  pick,
} from '../runners/per-record/ai-chat-steps';

const description: StepTypeDescription = {
  id: 'ai_prompt',
  name: 'AI prompt',
  description:
    "Ask an AI language model (LLM, GPT) a question about each row and store its answer in a new column, or in several typed columns: classify, summarise, translate, extract information or generate text. The prompt can include the row's values.",
  category: 'enrich',
  tags: ['ai', 'llm', 'prompt', 'per-record'],
  params: [
    {
      name: 'prompt',
      type: 'template',
      label: 'Prompt',
      help: 'What to ask for each row. Insert values with {{field.column}} and variables with {{var.name}}, e.g. "Classify the sentiment of: {{field.review}}". A row\'s values are sent marked as data, and the model is told never to follow instructions written inside them.',
      required: true,
      max_length: 20_000,
    },
    aiModelParam,
    {
      name: 'output_column',
      type: 'string',
      label: 'Answer column',
      help: 'text format: the column that receives the answer.',
      required: false,
      default: 'ai_answer',
      max_length: 128,
    },
    {
      name: 'output_format',
      type: 'enum',
      label: 'Answer format',
      help: 'text: the answer as written, in the answer column. json: the model must answer a JSON object with the fields listed under "Answer columns", each stored in its own column; an answer that does not match is sent back once to be corrected.',
      required: false,
      default: 'text',
      options: ['text', 'json'],
    },
    {
      name: 'output_columns',
      type: 'json',
      label: 'Answer columns',
      help: 'json format: up to 50 columns, each {"name": "sentiment", "type": "text", "description": "positive, negative or neutral"}; types: text, integer, number, boolean, list (a list of texts). A field the model leaves null stays empty.',
      required: false,
      default: [],
      fields: [
        { name: 'name', kind: 'text', label: 'Name', required: true },
        { name: 'type', kind: 'enum', label: 'Type', options: ['text', 'integer', 'number', 'boolean', 'list'], required: true },
        { name: 'description', kind: 'text', label: 'What it holds', required: false },
      ],
    },
    {
      name: 'temperature',
      type: 'number',
      label: 'Creativity (temperature)',
      help: '0 gives the most consistent answers; higher values give more varied ones.',
      required: false,
      default: 0.2,
      min: 0,
      max: 2,
    },
    {
      name: 'max_tokens',
      type: 'number',
      label: 'Longest answer (tokens)',
      help: 'An upper bound on the length of each answer; about 4 characters of English per token.',
      required: false,
      default: 500,
      min: 1,
      max: 16_000,
      integer: true,
    },
    aiConcurrencyParam,
    aiContinueParam,
    aiErrorParam('ai_error'),
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'record', credits: 1, note: `Per row, plus the model's token price for longer prompts and answers. ${AI_CACHE_NOTE}` },
  i18n: {
    'zh-CN': {
      name: 'AI 提示',
      description:
        '就每一行向 AI 大语言模型（LLM、GPT）提问，并把回答存入一个新列或多个带类型的列：分类、总结、翻译、提取信息或生成文本。提示中可以插入该行的值。',
      params: {
        prompt: {
          label: '提示词',
          help: '对每一行提出的问题。用 {{field.列名}} 插入该行的值，用 {{var.name}} 插入变量，例如 "判断这条评论的情感：{{field.review}}"。行中的值会标记为数据发送，并告知模型绝不执行其中写的指令。',
        },
        output_column: { label: '回答列', help: 'text 格式：存放回答的列。' },
        output_format: {
          label: '回答格式',
          help: 'text：原样保存回答到回答列。json：模型必须回答一个 JSON 对象，包含“回答列”中列出的字段，每个字段存入各自的列；不符合的回答会被退回一次要求更正。',
        },
        output_columns: {
          label: '回答列（JSON）',
          help: 'json 格式：最多 50 列，每列形如 {"name": "sentiment", "type": "text", "description": "positive、negative 或 neutral"}；类型：text、integer、number、boolean、list（文本列表）。模型给出 null 的字段留空。',
          fields: { name: '名称', type: '类型', description: '含义' },
        },
        temperature: { label: '创造性（temperature）', help: '0 时回答最稳定；数值越高回答越多样。' },
        max_tokens: { label: '最长回答（token 数）', help: '每个回答长度的上限；一个 token 约等于一个汉字或 4 个英文字符。' },
        ...aiCommonTextsZh,
      },
      cost_note: `按行计费，提示和回答较长时另加模型的 token 费用。${AI_CACHE_NOTE_ZH}`,
    },
  },
};

const runner = chatRunner(description, (input, stored, vars) => {
  const { prompt, output_columns: outputColumns, ...scalars } = stored;
  const params = resolveParams(description, scalars, vars);
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

export const aiPrompt: StepType = { description, runner, cacheable: false, billing: 'ai-tokens', outsideCalls: 'ai' };
