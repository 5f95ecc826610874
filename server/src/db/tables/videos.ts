// Tutorial videos (migration 013).
// Row types as Kysely sees them (db/schema.ts composes every area's into `Database`).

/** A tutorial video (migration 013). */
export interface VideosTable {
  id: string;
  title: string;
  description: string;
  url: string;
  thumbnail_url: string | null;
  duration_seconds: number;
  category: 'getting_started' | 'workflows' | 'datasets' | 'agents' | 'billing';
  locale: 'en' | 'cn';
  position: number;
  status: 'published' | 'hidden';
  created_at: string;
  updated_at: string;
}
