// Conversations with the agents (migration 009).
// Row types as Kysely sees them (db/schema.ts composes every area's into `Database`).

export const AGENT_KINDS = ['general', 'coordinator', 'step_param', 'step_param_evaluation'] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];
export type MessageStatus = 'complete' | 'partial' | 'error';

export interface ConversationsTable {
  id: string;
  user_id: string;
  title: string;
  agent: AgentKind;
  workflow_id: string | null;
  step_id: string | null;
  message_count: number;
  created_at: string;
  /** The last message's time: the list's order. */
  updated_at: string;
}

export interface ConversationMessagesTable {
  id: string;
  conversation_id: string;
  seq: number;
  role: 'user' | 'assistant';
  content: string;
  /** JSON MessagePart[] (docs/agents.md) */
  parts: string;
  status: MessageStatus;
  /** JSON CommitCard, or NULL */
  commit_card: string | null;
  /** JSON {input_tokens, output_tokens}, or NULL */
  usage: string | null;
  created_at: string;
}
