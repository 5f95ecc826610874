import type { Static } from '@sinclair/typebox';
import type { Modal } from '../../../server/src/http/common.schemas';
import type {
  AgentKind as AgentKindSchema,
  CommitCard as CommitCardSchema,
  ConversationCreateIn as ConversationCreateInSchema,
  ConversationDetailOut as ConversationDetailOutSchema,
  ConversationMessageOut as ConversationMessageOutSchema,
  ConversationOut as ConversationOutSchema,
  ConversationPage as ConversationPageSchema,
  MAX_MESSAGE_CHARS as SERVER_MAX_MESSAGE_CHARS,
  MessagePart as MessagePartSchema,
  MessageStreamIn,
  Usage,
} from '../../../server/src/modules/conversations/conversations.schemas';

// The shapes of docs/agents.md, from the server's own schemas (like every other area's types).

export type AgentKind = Static<typeof AgentKindSchema>;
export const AGENT_KINDS: readonly AgentKind[] = ['general', 'coordinator', 'step_param', 'step_param_evaluation'];

export type ConversationOut = Static<typeof ConversationOutSchema>;
/** Messages oldest first. */
export type ConversationDetailOut = Static<typeof ConversationDetailOutSchema>;
/** Text and tool activity in the order they happened. */
export type MessagePart = Static<typeof MessagePartSchema>;
/** `commit_id` null and `applied` false: a proposal (dry run) the user can apply with one click. */
export type CommitCard = Static<typeof CommitCardSchema>;
export type ChangeKind = CommitCard['changes'][number]['kind'];
export type TokenUsage = Static<typeof Usage>;
export type ConversationMessageOut = Static<typeof ConversationMessageOutSchema>;
export type MessageStatus = ConversationMessageOut['status'];
export type ConversationPage = Static<typeof ConversationPageSchema>;
export type ConversationCreateIn = Static<typeof ConversationCreateInSchema>;
export type StreamMessageIn = Static<typeof MessageStreamIn>;

type ToolCallPart = Extract<MessagePart, { type: 'tool_call' }>;
type ToolResultPart = Extract<MessagePart, { type: 'tool_result' }>;

/**
 * The chat stream's events (docs/agents.md, "Stream format"), by event name, as the server's
 * ConversationsService.turn writes them. `message_start` comes once the model began answering
 * (a refusal before that is an ordinary JSON error answer, not an event).
 */
export interface StreamEvents {
  message_start: { conversation_id: string; user_message_id: string; message_id: string };
  text_delta: { delta: string };
  tool_call: Omit<ToolCallPart, 'type'>;
  /** `result.summary` says what the tool did, in the reader's language; `ok: false` has `result.error`. */
  tool_result: Omit<ToolResultPart, 'type'>;
  commit: CommitCard;
  done: { message_id: string; status: 'complete'; usage: TokenUsage | null };
  error: { detail: string; modal?: Modal; status: 'partial' | 'error' };
}

/** The most a message may hold (the server's bound; the type keeps the two equal). */
export const MAX_MESSAGE_CHARS: typeof SERVER_MAX_MESSAGE_CHARS = 8000;
