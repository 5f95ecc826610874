import { AI_CACHE_NOTE, AI_CACHE_NOTE_ZH, aiCommonTextsZh, aiConcurrencyParam, aiContinueParam, aiErrorParam, aiModelParam } from './ai-common';
import type { StepType, StepTypeDescription } from './step-type';
import { resolveParams } from '../runners/columns';
import { checkAdded, commonParams, DATA_RULE, dataBlock, inputColumn, valueOf } from '../runners/per-record/ai';
import { asText, checkReferences } from '../runners/per-record/templates';
import {
  FIELD_COLUMN_TYPES,
  fieldsParam,
  fieldsSchema,
  checkFields,
  describeFields,
  renderPrompt,
  textParam,
  isEmptyText,
  chatRunner,
  withError,
  pick,
} from '../runners/per-record/ai-chat-steps';

const description: StepTypeDescription = {
  id: 'ai_extract',
  name: 'AI extract fields',
  description:
    'Pull structured fields out of free text with an AI language model, one column per field: names, dates, amounts, addresses, product names from emails, notes or descriptions.',
  category: 'enrich',
  tags: ['ai', 'llm', 'extract', 'parse', 'structured', 'per-record'],
  params: [
    {
      name: 'column',
      type: 'column',
      label: 'Text column',
      help: 'The column whose text the fields are read from. An empty value is not sent; its fields stay empty.',
      required: true,
    },
    {
      name: 'fields',
      type: 'json',
      label: 'Fields',
      help: 'Up to 50 fields, each {"name": "invoice_total", "type": "number", "description": "the total in euros"}; types: text, integer, number, boolean, list (a list of texts). Each becomes a column; a field the text does not state stays empty. An answer with missing or wrongly typed fields is sent back once to be corrected.',
      required: true,
      fields: [
        { name: 'name', kind: 'text', label: 'Name', required: true },
        { name: 'type', kind: 'enum', label: 'Type', options: ['text', 'integer', 'number', 'boolean', 'list'], required: true },
        { name: 'description', kind: 'text', label: 'What it holds', required: false },
      ],
    },
    {
      name: 'instructions',
      type: 'string',
      label: 'Instructions',
      help: 'Optional guidance, e.g. "dates as YYYY-MM-DD". May use {{var.name}}.',
      required: false,
      default: '',
      max_length: 2000,
    },
    aiModelParam,
    aiConcurrencyParam,
    aiContinueParam,
    aiErrorParam('extract_error'),
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'record', credits: 1, note: `Per row with text, plus the model's token price. ${AI_CACHE_NOTE}` },
  i18n: {
    'zh-CN': {
      name: 'AI 提取字段',
      description: '用 AI 大语言模型从自由文本中提取结构化字段，每个字段一列：从邮件、备注或描述中提取姓名、日期、金额、地址、产品名称。',
      params: {
        column: { label: '文本列', help: '从中读取字段的文本所在的列。空值不会发送，其字段留空。' },
        fields: {
          label: '字段',
          help: '最多 50 个字段，每个形如 {"name": "invoice_total", "type": "number", "description": "以欧元计的总额"}；类型：text、integer、number、boolean、list（文本列表）。每个字段成为一列；文本中没有的字段留空。缺少字段或类型不对的回答会被退回一次要求更正。',
          fields: { name: '名称', type: '类型', description: '含义' },
        },
        instructions: { label: '说明', help: '可选的说明，例如 "日期写成 YYYY-MM-DD"。可以使用 {{var.name}}。' },
        ...aiCommonTextsZh,
      },
      cost_note: `按有文本的行计费，另加模型的 token 费用。${AI_CACHE_NOTE_ZH}`,
    },
  },
};

const runner = chatRunner(description, (input, stored, vars) => {
  const { fields: rawFields, instructions: rawInstructions, ...scalars } = stored;
  const params = resolveParams(description, scalars, vars);
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

export const aiExtract: StepType = { description, runner, cacheable: false, billing: 'ai-tokens', outsideCalls: 'ai' };
