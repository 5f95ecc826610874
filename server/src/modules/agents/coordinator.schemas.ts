import { Type } from '@sinclair/typebox';
import { Id } from '../../http/common.schemas';
import { ParamInputs, StepCreateIn } from '../steps/steps.schemas';
import { MAX_PREVIEW_RECORDS } from './preview';

export { VariableCreateIn } from '../variables/variables.schemas';

// The coordinator's tool inputs: what the model may call its tools with, validated before a tool runs.

export const NoInput = Type.Object({}, { additionalProperties: false });
export const StepRef = Type.Object({ step_id: Id }, { additionalProperties: false });
export const Link = Type.Object({ from_step_id: Id, to_step_id: Id }, { additionalProperties: false });
export const AddStepIn = Type.Object(
  {
    step_type: StepCreateIn.properties.step_type,
    name: StepCreateIn.properties.name,
    param_inputs: Type.Optional(ParamInputs),
    after_step_id: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export const SetParamsIn = Type.Object({ step_id: Id, param_inputs: ParamInputs }, { additionalProperties: false });
export const PreviewIn = Type.Object(
  { step_id: Id, sample_size: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PREVIEW_RECORDS, default: 5 })) },
  { additionalProperties: false },
);
export const SearchIn = Type.Object({ query: Type.String({ minLength: 1, maxLength: 500 }) }, { additionalProperties: false });
