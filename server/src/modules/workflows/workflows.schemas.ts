import { Type, type Static } from '@sinclair/typebox';
import { Notices, Page, pageFields, StringEnum } from '../../http/common.schemas';
import { ParamType, StepCategory } from '../../engine/step-types/step-type';
import { StepOut } from '../steps/steps.schemas';
import { VariableOut } from '../variables/variables.schemas';

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const Description = Type.String({ maxLength: 5000 });
const Tags = Type.Array(Type.String({ minLength: 1, maxLength: 40, pattern: '\\S' }), { maxItems: 20, uniqueItems: true });

export const Visibility = StringEnum(['private', 'published']);

export const WorkflowSummaryOut = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  tags: Type.Array(Type.String()),
  visibility: Visibility,
  /** Grows with every change; send it back as If-Match to refuse stale writes. */
  version: Type.Integer(),
  step_count: Type.Integer(),
  clone_count: Type.Integer(),
  cloned_from_id: Type.Union([Type.String(), Type.Null()]),
  published_at: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type WorkflowSummaryOut = Static<typeof WorkflowSummaryOut>;

export const WorkflowOut = Type.Object({
  ...WorkflowSummaryOut.properties,
  /**
   * The version the gallery's copy was taken from: when it differs from `version`, the gallery
   * shows an older state (publish again to update it). Null when not published, or published
   * before the version was recorded.
   */
  published_version: Type.Union([Type.Integer(), Type.Null()]),
  owner_id: Type.String(),
  steps: Type.Array(StepOut),
  variables: Type.Array(VariableOut),
  can_undo: Type.Boolean(),
  can_redo: Type.Boolean(),
  ...Notices,
});
export type WorkflowOut = Static<typeof WorkflowOut>;

export const WorkflowCreateIn = Type.Object(
  { name: Name, description: Type.Optional(Description), tags: Type.Optional(Tags) },
  { additionalProperties: false },
);
export type WorkflowCreateIn = Static<typeof WorkflowCreateIn>;

export const WorkflowUpdateIn = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    tags: Type.Optional(Tags),
    /** The version this change is based on (same as If-Match). */
    version: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type WorkflowUpdateIn = Static<typeof WorkflowUpdateIn>;

export const WorkflowListQuery = Type.Object({
  ...pageFields(),
  q: Type.Optional(Type.String({ maxLength: 200 })),
  sort: StringEnum(['updated_at', 'created_at', 'name'], { default: 'updated_at' }),
  order: StringEnum(['asc', 'desc'], { default: 'desc' }),
});
export type WorkflowListQuery = Static<typeof WorkflowListQuery>;

export const WorkflowPage = Page(WorkflowSummaryOut);

export const PublicWorkflowOut = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  tags: Type.Array(Type.String()),
  author_name: Type.String(),
  step_count: Type.Integer(),
  clone_count: Type.Integer(),
  published_at: Type.String(),
});
export const PublicWorkflowQuery = Type.Object({
  ...pageFields({ size: 24, maxSize: 100 }),
  q: Type.Optional(Type.String({ maxLength: 200 })),
});
export const PublicWorkflowPage = Page(PublicWorkflowOut);

/** One setting of a published step, as the gallery shows it. */
export const PublicParamOut = Type.Object({
  name: Type.String(),
  /** In the request's language; the param's name when its step type is unknown. */
  label: Type.String(),
  type: Type.Union([ParamType, Type.Null()]),
  /** Null when withheld. */
  value: Type.Unknown(),
  /**
   * True when the value is not shown: secrets, and the author's files and datasets, are never
   * public, and a clone starts without them.
   */
  withheld: Type.Boolean(),
});

export const PublicStepOut = Type.Object({
  /** Names the step within this answer only (not the author's step id). */
  id: Type.String(),
  name: Type.String(),
  step_type: Type.String(),
  /** The step type's name in the request's language. */
  type_name: Type.String(),
  category: Type.Union([StepCategory, Type.Null()]),
  position: Type.Object({ x: Type.Number(), y: Type.Number() }),
  /** The connections: ids (of this answer) of the steps this one reads, in order. */
  inputs: Type.Array(Type.String()),
  params: Type.Array(PublicParamOut),
});

/** A published workflow as it was published: the gallery's preview, for everyone. */
export const PublicWorkflowDetailOut = Type.Object({
  ...PublicWorkflowOut.properties,
  steps: Type.Array(PublicStepOut),
  /** Names and types only: no variable's value is public. */
  variables: Type.Array(Type.Object({ name: Type.String(), type: Type.String(), description: Type.String() })),
});
export type PublicWorkflowDetailOut = Static<typeof PublicWorkflowDetailOut>;

export const PublishQuery = Type.Object({
  /** false takes the workflow out of the gallery; true on a published workflow updates its copy. */
  published: Type.Boolean({ default: true }),
});

export const WorkflowInfoOut = Type.Object({
  id: Type.String(),
  step_count: Type.Integer(),
  variable_count: Type.Integer(),
  steps_by_category: Type.Record(Type.String(), Type.Integer()),
  /** The newest run (status: its state); null until the workflow has run. */
  last_run: Type.Union([Type.Object({ id: Type.String(), status: Type.String(), started_at: Type.String() }), Type.Null()]),
  datasets: Type.Array(Type.Object({ id: Type.String(), step_id: Type.String(), row_count: Type.Integer() }), {
    description: "Each step's newest output, in step order",
  }),
  estimated_cost: Type.Object({
    credits_per_run: Type.Number(),
    credits_per_record: Type.Number(),
    notes: Type.Array(Type.String()),
  }),
});
export type WorkflowInfoOut = Static<typeof WorkflowInfoOut>;
