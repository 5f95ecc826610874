import type { Db } from '../../db/database';
import type { StepInfoEmbeddingsTable, StepInfoOverridesTable } from '../../db/schema';

/** Per-language display texts an admin set; a missing field shows the built-in text. */
export interface OverrideTexts {
  name?: string;
  description?: string;
}

export interface StepInfoOverride {
  step_type_id: string;
  category: string | null;
  tags: string[] | null;
  texts: { en?: OverrideTexts; cn?: OverrideTexts };
}

export interface StoredEmbedding {
  step_type_id: string;
  text_hash: string;
  vector: number[];
}

const toOverride = (row: StepInfoOverridesTable): StepInfoOverride => ({
  step_type_id: row.step_type_id,
  category: row.category,
  tags: row.tags === null ? null : (JSON.parse(row.tags) as string[]),
  texts: JSON.parse(row.texts) as StepInfoOverride['texts'],
});

export class StepInfosRepository {
  constructor(private readonly db: Db) {}

  async overrides(): Promise<Map<string, StepInfoOverride>> {
    const rows = await this.db.selectFrom('step_info_overrides').selectAll().execute();
    return new Map(rows.map((row) => [row.step_type_id, toOverride(row)]));
  }

  /** Writes the overrides of several infos in one transaction; an empty override removes the row. */
  async saveOverrides(overrides: StepInfoOverride[], userId: string): Promise<void> {
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      for (const o of overrides) {
        const empty = o.category === null && o.tags === null && !Object.keys(o.texts).length;
        if (empty) {
          await trx.deleteFrom('step_info_overrides').where('step_type_id', '=', o.step_type_id).execute();
          continue;
        }
        const values = {
          category: o.category,
          tags: o.tags === null ? null : JSON.stringify(o.tags),
          texts: JSON.stringify(o.texts),
          updated_by: userId,
          updated_at: now,
        };
        await trx
          .insertInto('step_info_overrides')
          .values({ step_type_id: o.step_type_id, ...values })
          .onConflict((oc) => oc.column('step_type_id').doUpdateSet(values))
          .execute();
      }
    });
  }

  async embeddings(model: string): Promise<StoredEmbedding[]> {
    const rows = await this.db.selectFrom('step_info_embeddings').select(['step_type_id', 'text_hash', 'vector']).where('model', '=', model).execute();
    return rows.map((row) => ({ step_type_id: row.step_type_id, text_hash: row.text_hash, vector: JSON.parse(row.vector) as number[] }));
  }

  /** Upserts, so two processes ensuring at once both succeed and the last vector wins (they are equal). */
  async saveEmbeddings(model: string, embeddings: StoredEmbedding[]): Promise<void> {
    if (!embeddings.length) return;
    const now = new Date().toISOString();
    const rows: StepInfoEmbeddingsTable[] = embeddings.map((e) => ({
      step_type_id: e.step_type_id,
      model,
      text_hash: e.text_hash,
      dimensions: e.vector.length,
      vector: JSON.stringify(e.vector),
      updated_at: now,
    }));
    await this.db.transaction().execute(async (trx) => {
      for (const row of rows) {
        await trx
          .insertInto('step_info_embeddings')
          .values(row)
          .onConflict((oc) =>
            oc.columns(['step_type_id', 'model']).doUpdateSet({ text_hash: row.text_hash, dimensions: row.dimensions, vector: row.vector, updated_at: now }),
          )
          .execute();
      }
    });
  }
}
