export { chatModelFor, embeddingModelFor, requireChatModel, NoModelConfigured, type ChatModel, type ModelSettings } from './models';
export { describeModelFailure, modelCallFailed, retryAfter, type ModelFailure, type ModelFailureKind } from './model-errors';
