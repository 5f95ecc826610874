import type { Modal } from '../../../server/src/http/common.schemas';

// The shapes of docs/agents.md (issue 7/8), declared here as the contract says them: the server's
// schemas are built in parallel and not in this branch yet. When they land, these become
// `Static<typeof …>` re-exports of them, like the other areas' types.

export type AgentKind = 'general' | 'coordinator' | 'step_param' | 'step_param_evaluation';
export const AGENT_KINDS: readonly AgentKind[] = ['general', 'coordinator', 'step_param', 'step_param_evaluation'];

export interface ConversationOut {
  id: string;
  /** The first user message, cut to 80 characters, until renamed. */
  title: string;
  agent: AgentKind;
  workflow_id: string | null;
  step_id: string | null;
  message_count: number;
  created_at: string;
  /** The last message. */
  updated_at: string;
}

export interface ConversationDetailOut extends ConversationOut {
  /** Oldest first. */
  messages: ConversationMessageOut[];
}

export type MessagePart =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; id: string; name: string; args: unknown }
  | { type: 'tool_result'; id: string; name: string; ok: boolean; result: unknown };

export type ChangeKind = 'step_added' | 'step_removed' | 'step_updated' | 'connected' | 'disconnected' | 'variable_set';

export interface CommitCard {
  /** Null for a dry run (a proposal, not applied). */
  commit_id: string | null;
  workflow_id: string;
  /** False: a proposal the user can apply with one click. */
  applied: boolean;
  summary: string;
  changes: { kind: ChangeKind; step_id: string | null; label: string }[];
}

export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
}

export type MessageStatus = 'complete' | 'partial' | 'error';

export interface ConversationMessageOut {
  id: string;
  role: 'user' | 'assistant';
  /** The text (markdown for the assistant). */
  content: string;
  /** Text and tool activity in the order they happened. */
  parts: MessagePart[];
  status: MessageStatus;
  commit: CommitCard | null;
  usage: TokenUsage | null;
  created_at: string;
}

export interface ConversationPage {
  items: ConversationOut[];
  total: number;
  page: number;
  page_size: number;
}

export interface ConversationCreateIn {
  title?: string;
  agent?: AgentKind;
  workflow_id?: string;
  step_id?: string;
}

export interface StreamMessageIn {
  /** 1–8000 characters. */
  content: string;
  dry_run?: boolean;
}

/** The chat stream's events (docs/agents.md, "Stream format"), by event name. */
export interface StreamEvents {
  message_start: { conversation_id: string; user_message_id: string; message_id: string };
  text_delta: { delta: string };
  tool_call: { id: string; name: string; args: unknown };
  tool_result: { id: string; name: string; ok: boolean; result: unknown };
  commit: CommitCard;
  done: { message_id: string; status: 'complete'; usage: TokenUsage | null };
  error: { detail: string; modal?: Modal; status: 'partial' | 'error' };
}

/** The most a message may hold (docs/agents.md). */
export const MAX_MESSAGE_CHARS = 8000;
