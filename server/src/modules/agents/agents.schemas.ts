import { Type, type Static } from '@sinclair/typebox';
import { Id } from '../../http/common.schemas';
import { CommitCard, ConversationMessageOut, MessageText } from '../conversations/conversations.schemas';

export const CoordinatorParams = Type.Object({ workflowId: Id });
export const CoordinatorQuery = Type.Object({ dry_run: Type.Boolean({ default: false, description: 'Plan the changes without applying them (the card has applied=false)' }) }, { additionalProperties: false });
export const CoordinatorIn = Type.Object({ message: MessageText, conversation_id: Type.Optional(Id) }, { additionalProperties: false });
export type CoordinatorIn = Static<typeof CoordinatorIn>;

export const CoordinatorOut = Type.Object({
  conversation_id: Type.String(),
  message: ConversationMessageOut,
  commit: Type.Union([CommitCard, Type.Null()]),
});
export type CoordinatorOut = Static<typeof CoordinatorOut>;
