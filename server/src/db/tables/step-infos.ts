// The step catalogue: admins' overrides and the search embeddings.
// Row types as Kysely sees them (db/schema.ts composes every area's into `Database`).

export interface StepInfoOverridesTable {
  step_type_id: string;
  category: string | null;
  /** JSON string[] or null */
  tags: string | null;
  /** JSON { en?: {name?, description?}, cn?: {name?, description?} } */
  texts: string;
  updated_by: string | null;
  updated_at: string;
}

export interface StepInfoEmbeddingsTable {
  step_type_id: string;
  model: string;
  text_hash: string;
  dimensions: number;
  /** JSON number[] */
  vector: string;
  updated_at: string;
}
