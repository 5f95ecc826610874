import { Type, type Static } from '@sinclair/typebox';
import { Notices, StringEnum } from '../../http/common.schemas';

export const VariableType = StringEnum(['string', 'number', 'boolean', 'json', 'secret']);

/** Letters, digits and underscores, as written in a reference: {{var.NAME}}. */
export const VariableName = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z_][A-Za-z0-9_]*$' });

export const VariableOut = Type.Object({
  id: Type.String(),
  workflow_id: Type.String(),
  name: Type.String(),
  type: VariableType,
  description: Type.String(),
  /** The value; always null for a secret (see has_value). */
  value: Type.Unknown(),
  has_value: Type.Boolean(),
});
export type VariableOut = Static<typeof VariableOut>;

export const VariableWithVersionOut = Type.Object({ ...VariableOut.properties, workflow_version: Type.Integer(), ...Notices });

export const VariableCreateIn = Type.Object(
  {
    name: VariableName,
    type: VariableType,
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    value: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
export type VariableCreateIn = Static<typeof VariableCreateIn>;

export const VariableUpdateIn = Type.Object(
  {
    name: Type.Optional(VariableName),
    type: Type.Optional(VariableType),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    value: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type VariableUpdateIn = Static<typeof VariableUpdateIn>;

export const VariableFieldsOut = Type.Object({
  variables: Type.Array(Type.Object({ name: Type.String(), type: VariableType, reference: Type.String() })),
  fields: Type.Array(
    Type.Object({
      name: Type.String(),
      type: Type.String({ description: "The column's DuckDB type, or UNKNOWN when only running tells" }),
      reference: Type.String(),
      /** Which input step the column comes from. */
      from_step_id: Type.String(),
      input_index: Type.Integer({ description: "The input's place among the step's inputs (0-based): a join's right-hand columns are input 1's" }),
    }),
  ),
  /** Why fields may be missing (input not run yet). */
  notes: Type.Array(Type.String()),
  preview_step_ids: Type.Array(Type.String(), {
    description:
      'Inputs whose columns only a run can tell, and which a preview on a sample may run unasked: they and every step before them are free and call nothing outside (the editor previews them when the step is opened)',
  }),
});
