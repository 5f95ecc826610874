import { AI_CACHE_NOTE, AI_CACHE_NOTE_ZH, aiCommonTextsZh, aiConcurrencyParam, aiContinueParam, aiErrorParam, aiModelParam } from './ai-common';
import type { StepTypeDescription } from './step-type';

export const aiClassify: StepTypeDescription = {
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
