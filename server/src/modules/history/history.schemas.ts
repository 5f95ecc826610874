import { Type } from '@sinclair/typebox';
import { Id, Notices, Page, pageFields, StringEnum } from '../../http/common.schemas';
import { StepOut } from '../steps/steps.schemas';
import { VariableOut } from '../variables/variables.schemas';

export const Change = Type.Object({
  entity: StringEnum(['workflow', 'step', 'variable']),
  id: Type.String(),
  op: StringEnum(['create', 'update', 'delete']),
  fields: Type.Optional(Type.Array(Type.String())),
});

export const CommitOut = Type.Object({
  id: Type.String(),
  workflow_id: Type.String(),
  /**
   * Rising per workflow; also the workflow version this commit produced. A drag's moves merge into
   * one commit, which takes the version of its last move, so numbers may skip.
   */
  seq: Type.Integer(),
  kind: StringEnum(['create', 'edit', 'undo', 'redo', 'restore']),
  message: Type.String(),
  author: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()]),
  changes: Type.Array(Change),
  created_at: Type.String(),
});

export const CommitDetailOut = Type.Object({
  ...CommitOut.properties,
  /** The workflow as it was after this commit (secret values left out). */
  state: Type.Object({
    name: Type.String(),
    description: Type.String(),
    tags: Type.Array(Type.String()),
    steps: Type.Array(StepOut),
    variables: Type.Array(VariableOut),
  }),
});

export const CommitListIn = Type.Object(
  {
    workflow_id: Id,
    ...pageFields(),
  },
  { additionalProperties: false },
);

export const CommitPage = Page(CommitOut);

export const WorkflowRefIn = Type.Object({ workflow_id: Id, version: Type.Optional(Type.Integer({ minimum: 1 })) }, { additionalProperties: false });

export { Notices };
