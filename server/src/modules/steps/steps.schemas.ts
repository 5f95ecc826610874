import { Type, type Static } from '@sinclair/typebox';
import { Id, Notices } from '../../http/common.schemas';

export const Position = Type.Object({ x: Type.Number(), y: Type.Number() }, { additionalProperties: false });

export const ParamInputs = Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Type.Unknown(), {
  description: 'Param name → value, or a reference like "{{var.threshold}}" / "{{field.city}}"',
});

export const StepOut = Type.Object({
  id: Type.String(),
  workflow_id: Type.String(),
  step_type: Type.String({ description: 'The step info (catalogue entry) this step is an instance of' }),
  name: Type.String(),
  param_inputs: ParamInputs,
  inputs: Type.Array(Type.String(), { description: 'Ids of the steps this one reads from, in order' }),
  position: Position,
});
export type StepOut = Static<typeof StepOut>;

const StepName = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });

export const StepCreateIn = Type.Object(
  {
    workflow_id: Id,
    step_type: Type.String({ minLength: 1, maxLength: 100 }),
    name: Type.Optional(StepName),
    param_inputs: Type.Optional(ParamInputs),
    inputs: Type.Optional(Type.Array(Id, { maxItems: 50 })),
    position: Type.Optional(Position),
  },
  { additionalProperties: false },
);
export type StepCreateIn = Static<typeof StepCreateIn>;

export const StepUpdateIn = Type.Object(
  {
    name: Type.Optional(StepName),
    param_inputs: Type.Optional(ParamInputs),
    inputs: Type.Optional(Type.Array(Id, { maxItems: 50 })),
    position: Type.Optional(Position),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type StepUpdateIn = Static<typeof StepUpdateIn>;

export const ParamInputsIn = Type.Object({ param_inputs: ParamInputs }, { additionalProperties: false });
export type ParamInputsIn = Static<typeof ParamInputsIn>;

export const StepWithVersionOut = Type.Object({ ...StepOut.properties, workflow_version: Type.Integer(), ...Notices });

export const StepListQuery = Type.Object({ workflow_id: Id });

export const FromTemplateQuery = Type.Object({
  workflow_id: Id,
  step_info_id: Type.String({ minLength: 1, maxLength: 100 }),
  name: Type.Optional(StepName),
  after_step_id: Type.Optional(Id),
  x: Type.Optional(Type.Number()),
  y: Type.Optional(Type.Number()),
});
export type FromTemplateQuery = Static<typeof FromTemplateQuery>;
