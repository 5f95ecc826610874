import { Type, type Static } from '@sinclair/typebox';
import { Id, StringEnum } from '../../http/common.schemas';
import { MAX_PREVIEW_RECORDS } from './preview';
import { CommitCard, ConversationMessageOut, MessageText } from '../conversations/conversations.schemas';

export const CoordinatorParams = Type.Object({ workflowId: Id });
export const CoordinatorQuery = Type.Object(
  { dry_run: Type.Boolean({ default: false, description: 'Plan the changes without applying them (the card has applied=false)' }) },
  { additionalProperties: false },
);
export const CoordinatorIn = Type.Object({ message: MessageText, conversation_id: Type.Optional(Id) }, { additionalProperties: false });
export type CoordinatorIn = Static<typeof CoordinatorIn>;

export const CoordinatorOut = Type.Object({
  conversation_id: Type.String(),
  message: ConversationMessageOut,
  commit: Type.Union([CommitCard, Type.Null()]),
});
export type CoordinatorOut = Static<typeof CoordinatorOut>;

export const StepAgentParams = Type.Object({ workflowId: Id, stepId: Id });

export const PreviewOut = Type.Object({
  run_id: Type.String({ description: 'The sample run (mode up_to with sample_size)' }),
  state: Type.String(),
  error: Type.Union([Type.String(), Type.Null()]),
  columns: Type.Array(Type.Object({ name: Type.String(), type: Type.String() })),
  records: Type.Array(Type.Record(Type.String(), Type.Unknown())),
});

export const StepParamIn = Type.Object(
  {
    message: MessageText,
    conversation_id: Type.Optional(Id),
    apply: Type.Optional(Type.Boolean({ default: true, description: 'false: propose the params without saving them' })),
  },
  { additionalProperties: false },
);
export type StepParamIn = Static<typeof StepParamIn>;

export const StepParamOut = Type.Object({
  conversation_id: Type.String(),
  message: ConversationMessageOut,
  params: Type.Record(Type.String(), Type.Unknown()),
  applied: Type.Boolean(),
  preview: Type.Union([PreviewOut, Type.Null()]),
});

export const EvaluationIn = Type.Object(
  {
    message: Type.Optional(MessageText),
    conversation_id: Type.Optional(Id),
    sample_size: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PREVIEW_RECORDS, default: 5 })),
  },
  { additionalProperties: false },
);
export type EvaluationIn = Static<typeof EvaluationIn>;

export const EvaluationOut = Type.Object({
  conversation_id: Type.String(),
  message: ConversationMessageOut,
  problems: Type.Array(
    Type.Object({
      severity: StringEnum(['error', 'warning']),
      msg: Type.String(),
      record_id: Type.Union([Type.String(), Type.Null()]),
      param: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  preview: Type.Union([PreviewOut, Type.Null()]),
});
