import { Type, type Static } from '@sinclair/typebox';
import { Id, Page, pageFields, StringEnum } from '../../http/common.schemas';
import { AGENT_KINDS } from '../../db/schema';

// The shapes of docs/agents.md (the web client builds its screens against that page).

export const AgentKind = StringEnum([...AGENT_KINDS]);

/** A user message's text; the stream and the agents' JSON calls take the same bound. */
export const MAX_MESSAGE_CHARS = 8000;
export const MessageText = Type.String({ minLength: 1, maxLength: MAX_MESSAGE_CHARS, pattern: '\\S' });
export const TITLE_CHARS = 80;

export const MessagePart = Type.Union([
  Type.Object({ type: Type.Literal('text'), text: Type.String() }),
  Type.Object({ type: Type.Literal('tool_call'), id: Type.String(), name: Type.String(), args: Type.Unknown() }),
  Type.Object({ type: Type.Literal('tool_result'), id: Type.String(), name: Type.String(), ok: Type.Boolean(), result: Type.Unknown() }),
]);
export type MessagePart = Static<typeof MessagePart>;

export const CHANGE_KINDS = ['step_added', 'step_removed', 'step_updated', 'connected', 'disconnected', 'variable_set'] as const;
export const CommitChange = Type.Object({ kind: StringEnum([...CHANGE_KINDS]), step_id: Type.Union([Type.String(), Type.Null()]), label: Type.String() });
export type CommitChange = Static<typeof CommitChange>;

export const CommitCard = Type.Object({
  commit_id: Type.Union([Type.String(), Type.Null()], { description: 'null for a dry run (a proposal, not applied)' }),
  workflow_id: Type.String(),
  applied: Type.Boolean(),
  summary: Type.String({ description: 'e.g. "Added 3 steps, connected 2"' }),
  changes: Type.Array(CommitChange),
});
export type CommitCard = Static<typeof CommitCard>;

export const Usage = Type.Object({ input_tokens: Type.Integer(), output_tokens: Type.Integer() });
export type Usage = Static<typeof Usage>;

export const ConversationMessageOut = Type.Object({
  id: Type.String(),
  role: StringEnum(['user', 'assistant']),
  content: Type.String(),
  parts: Type.Array(MessagePart),
  status: StringEnum(['complete', 'partial', 'error'], { description: 'partial: the stream stopped early (stop, dropped)' }),
  commit: Type.Union([CommitCard, Type.Null()]),
  usage: Type.Union([Usage, Type.Null()]),
  created_at: Type.String(),
});
export type ConversationMessageOut = Static<typeof ConversationMessageOut>;

export const ConversationOut = Type.Object({
  id: Type.String(),
  title: Type.String(),
  agent: AgentKind,
  workflow_id: Type.Union([Type.String(), Type.Null()]),
  step_id: Type.Union([Type.String(), Type.Null()]),
  message_count: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type ConversationOut = Static<typeof ConversationOut>;

export const ConversationDetailOut = Type.Object({ ...ConversationOut.properties, messages: Type.Array(ConversationMessageOut) });
export type ConversationDetailOut = Static<typeof ConversationDetailOut>;

export const ConversationPage = Page(ConversationOut);

export const ConversationListQuery = Type.Object(
  { ...pageFields({ size: 20, maxSize: 100 }), workflow_id: Type.Optional(Id), agent: Type.Optional(AgentKind) },
  { additionalProperties: false },
);
export type ConversationListQuery = Static<typeof ConversationListQuery>;

export const ConversationCreateIn = Type.Object(
  {
    title: Type.Optional(Type.String({ maxLength: 200 })),
    agent: Type.Optional(AgentKind),
    workflow_id: Type.Optional(Id),
    step_id: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type ConversationCreateIn = Static<typeof ConversationCreateIn>;

export const MessageStreamIn = Type.Object({ content: MessageText, dry_run: Type.Optional(Type.Boolean({ default: false })) }, { additionalProperties: false });
export type MessageStreamIn = Static<typeof MessageStreamIn>;
