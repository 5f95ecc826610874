import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { CostHint, ParamSpec, StepCategory, StepInputs } from '../../engine/step-types/step-type';
import { Notices, PageQuery, StringEnum } from '../../http/common.schemas';

// The catalogue's shapes: what the editor's catalogue panel, the param forms and the agents read.

// Params, categories, inputs and cost are the engine's own declarations (a step type is data the
// API serves as it is), so the catalogue's shapes cannot drift from what the engine validates.
export { StepCategory };
export const ParamOut = ParamSpec;
export type ParamOut = ParamSpec;

export const StepInfoOut = Type.Object({
  id: Type.String({ description: 'The step type id a workflow step stores, e.g. "deduplicate"' }),
  name: Type.String(),
  description: Type.String(),
  category: StepCategory,
  tags: Type.Array(Type.String()),
  params: Type.Array(ParamOut),
  inputs: StepInputs,
  outputs: Type.Array(Type.String()),
  cost: CostHint,
  customized: Type.Boolean({ description: 'An admin changed its name, description, category or tags' }),
  score: Type.Optional(Type.Number({ description: 'Only when searching with q: how well it matches (higher is better)' })),
});
export type StepInfoOut = Static<typeof StepInfoOut>;

const TagList = Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 20 });

export const StepInfoListQuery = Type.Object(
  {
    category: Type.Optional(StepCategory),
    tag: Type.Optional(
      Type.Array(Type.String({ maxLength: 200 }), { description: 'Repeat or comma-separate; an info matches when it has any of them', maxItems: 20 }),
    ),
    q: Type.Optional(Type.String({ maxLength: 500, description: 'Plain-language search, ranked by meaning' })),
    ...PageQuery.properties,
  },
  { additionalProperties: false },
);
export type StepInfoListQuery = Static<typeof StepInfoListQuery>;

export const StepInfoPage = Type.Object({
  items: Type.Array(StepInfoOut),
  total: Type.Integer(),
  page: Type.Integer(),
  page_size: Type.Integer(),
  ranking: StringEnum(['catalogue', 'meaning', 'text'], {
    description: 'catalogue: no q, catalogue order. meaning: ranked by embedding similarity. text: by words (no embeddings available)',
  }),
});
export type StepInfoPage = Static<typeof StepInfoPage>;

export const StepInfoIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const CategoryIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const TagParams = Type.Object({ tag: Type.String({ minLength: 1, maxLength: 40 }) });

export const CategoryOut = Type.Object({
  id: StepCategory,
  name: Type.String(),
  description: Type.String(),
  count: Type.Integer(),
});
export type CategoryOut = Static<typeof CategoryOut>;

export const CategoryWithInfosOut = Type.Object({ ...CategoryOut.properties, items: Type.Array(StepInfoOut) });
export type CategoryWithInfosOut = Static<typeof CategoryWithInfosOut>;

export const CategoriesOut = Type.Object({ items: Type.Array(CategoryOut), total: Type.Integer() });
export type CategoriesOut = Static<typeof CategoriesOut>;

export const CategorizedOut = Type.Object({ items: Type.Array(CategoryWithInfosOut), total: Type.Integer() });
export type CategorizedOut = Static<typeof CategorizedOut>;

/** A value or null (null: back to the built-in value). One JSON Schema type list, so one clear error. */
const Nullable = <T extends TSchema>(schema: T) => Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] });

export const StepInfoLocale = StringEnum(['en', 'cn']);
export type StepInfoLocale = Static<typeof StepInfoLocale>;

export const ByTagPatchIn = Type.Object(
  {
    name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }))),
    description: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S' }))),
    category: Type.Optional(StepCategory),
    tags: Type.Optional(Nullable(TagList)),
    locale: Type.Optional(
      Type.Unsafe<StepInfoLocale>({ ...StepInfoLocale, description: "Language of name and description; defaults to the request's language" }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type ByTagPatchIn = Static<typeof ByTagPatchIn>;

export const ByTagPatchOut = Type.Object({ items: Type.Array(StepInfoOut), total: Type.Integer(), ...Notices });
export type ByTagPatchOut = Static<typeof ByTagPatchOut>;

export const EnsureEmbeddingsOut = Type.Object({
  model: Type.String({ description: '"local-hash-v1", or "openai:<EMBEDDING_MODEL>"' }),
  dimensions: Type.Integer(),
  total: Type.Integer({ description: 'Step infos in the catalogue' }),
  computed: Type.Integer({ description: 'Embeddings made now (new or changed text)' }),
  unchanged: Type.Integer(),
  ...Notices,
});
export type EnsureEmbeddingsOut = Static<typeof EnsureEmbeddingsOut>;
