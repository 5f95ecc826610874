import type { ParamSpec, StepTypeTexts } from './step-type';

/**
 * Params every AI step shares (model, calls at once, errors), with their texts in both languages.
 * What they say is what `runners/per-record/ai.ts` does.
 */
export const aiModelParam: ParamSpec = {
  name: 'model',
  type: 'string',
  label: 'Model',
  help: 'Empty: the chat model the server is connected to (LLM_MODEL, or your own in Settings). A name here asks the same service for that model instead, e.g. gpt-4o or llama3.1.',
  required: false,
  default: '',
  max_length: 200,
};

export const aiConcurrencyParam: ParamSpec = {
  name: 'concurrency',
  type: 'number',
  label: 'Calls at once',
  help: 'How many records are sent to the model at the same time (1 to 16). Busy answers (rate limits, 5xx) and lost connections are retried up to 3 times, waiting as the service’s Retry-After asks.',
  required: false,
  default: 4,
  min: 1,
  max: 16,
  integer: true,
};

export const aiContinueParam: ParamSpec = {
  name: 'continue_on_error',
  type: 'boolean',
  label: 'Keep going on errors',
  help: 'On: a record whose call fails (or whose answer stays invalid after one correction) gets empty answer columns and the reason in the error column, and the run goes on; "Retry failed records" redoes only those. Off: the first failure stops the step. A refused API key stops it either way.',
  required: false,
  default: true,
};

export const aiErrorParam = (fallback: string): ParamSpec => ({
  name: 'error_column',
  type: 'string',
  label: 'Error column',
  help: 'The column that receives why a record failed; empty when it worked.',
  required: false,
  default: fallback,
  max_length: 128,
});

export const aiCommonTextsZh: NonNullable<StepTypeTexts['params']> = {
  model: {
    label: '模型',
    help: '留空：使用服务器连接的对话模型（LLM_MODEL，或你在设置中添加的模型）。填写名称则向同一服务请求该模型，例如 gpt-4o 或 llama3.1。',
  },
  concurrency: {
    label: '同时调用数',
    help: '同一时间发送给模型的记录数（1 到 16）。繁忙响应（限流、5xx）和断开的连接最多重试 3 次，并按服务的 Retry-After 等待。',
  },
  continue_on_error: {
    label: '出错时继续',
    help: '开启：调用失败（或回答经一次更正后仍无效）的记录，其回答列为空，原因写入错误列，运行继续；“重试失败的记录”只重做这些记录。关闭：第一次失败就停止该步骤。API 密钥被拒绝时，无论开关如何都会停止。',
  },
  error_column: { label: '错误列', help: '存放记录失败原因的列；成功时为空。' },
};

export const AI_CACHE_NOTE = 'Answers are kept: a record asked the same question of the same model again is not sent (and not charged) twice.';
export const AI_CACHE_NOTE_ZH = '回答会被保存：同一记录向同一模型再次提出相同问题时，不会重复发送（也不重复计费）。';
