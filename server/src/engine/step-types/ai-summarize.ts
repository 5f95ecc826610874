import { AI_CACHE_NOTE, AI_CACHE_NOTE_ZH, aiCommonTextsZh, aiConcurrencyParam, aiContinueParam, aiErrorParam, aiModelParam } from './ai-common';
import type { StepType, StepTypeDescription } from './step-type';
import { resolveParams, newColumnName } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import { checkAdded, commonParams, DATA_RULE, dataBlock, inputColumn, valueOf } from '../runners/per-record/ai';
import { asText } from '../runners/per-record/templates';
import { textParam, isEmptyText, chatRunner, withError } from '../runners/per-record/ai-chat-steps';

const description: StepTypeDescription = {
  id: 'ai_summarize',
  name: 'AI summarize',
  description:
    'Summarize the text of each row with an AI language model (LLM, GPT): a summary of one sentence, a few sentences or a paragraph, as prose, bullet points or a headline; e.g. summarise reviews, tickets, articles or emails.',
  category: 'enrich',
  tags: ['ai', 'llm', 'gpt', 'summarize', 'summary', 'tldr', 'per-record'],
  params: [
    {
      name: 'column',
      type: 'column',
      label: 'Text column',
      help: 'The column whose text is summarised. An empty value is not sent and gets no summary.',
      required: true,
    },
    {
      name: 'length',
      type: 'enum',
      label: 'Length',
      help: 'short: one sentence. medium: about three sentences. long: one paragraph of at most 150 words.',
      required: false,
      default: 'short',
      options: ['short', 'medium', 'long'],
    },
    {
      name: 'style',
      type: 'enum',
      label: 'Style',
      help: 'plain: prose. bullet_points: one short point per line. headline: a title.',
      required: false,
      default: 'plain',
      options: ['plain', 'bullet_points', 'headline'],
    },
    {
      name: 'language',
      type: 'string',
      label: 'Language',
      help: 'The language of the summary, e.g. English or 中文. Empty: the language of the text.',
      required: false,
      default: '',
      max_length: 100,
    },
    {
      name: 'output_column',
      type: 'string',
      label: 'Summary column',
      help: 'The column that receives the summary.',
      required: false,
      default: 'summary',
      max_length: 128,
    },
    aiModelParam,
    aiConcurrencyParam,
    aiContinueParam,
    aiErrorParam('summary_error'),
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'record', credits: 1, note: `Per row with text, plus the model's token price for long texts. ${AI_CACHE_NOTE}` },
  i18n: {
    'zh-CN': {
      name: 'AI 摘要',
      description: '用 AI 大语言模型（LLM、GPT）为每一行的文本写摘要：一句话、几句话或一段；可以是正文、要点列表或标题；例如总结评论、工单、文章或邮件。',
      params: {
        column: { label: '文本列', help: '要摘要的文本所在的列。空值不会发送，也没有摘要。' },
        length: { label: '长度', help: 'short：一句话。medium：约三句话。long：一段，最多 150 个英文词。' },
        style: { label: '风格', help: 'plain：正文。bullet_points：每行一个简短要点。headline：一个标题。' },
        language: { label: '语言', help: '摘要使用的语言，例如 English 或 中文。留空：与原文相同。' },
        output_column: { label: '摘要列', help: '存放摘要的列。' },
        ...aiCommonTextsZh,
      },
      cost_note: `按有文本的行计费，文本较长时另加模型的 token 费用。${AI_CACHE_NOTE_ZH}`,
    },
  },
};

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

const runner = chatRunner(description, (input, stored, vars) => {
  const params = resolveParams(description, stored, vars);
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

export const aiSummarize: StepType = { description, runner, cacheable: false, billing: 'ai-tokens', outsideCalls: 'ai' };
