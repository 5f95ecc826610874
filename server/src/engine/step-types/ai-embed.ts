import { AI_CACHE_NOTE, AI_CACHE_NOTE_ZH, aiCommonTextsZh, aiContinueParam, aiErrorParam } from './ai-common';
import type { StepTypeDescription } from './step-type';

export const aiEmbed: StepTypeDescription = {
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
