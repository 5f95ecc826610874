// Support: a user's contact queries and their threads (migration 013).
// Row types as Kysely sees them (db/schema.ts composes every area's into `Database`).

export type ContactCategory = 'general' | 'billing' | 'technical' | 'feature' | 'account';
export type ContactStatus = 'open' | 'answered' | 'closed';

/** A user's question to support (migration 013). */
export interface ContactQueriesTable {
  id: string;
  user_id: string;
  subject: string;
  message: string;
  category: ContactCategory;
  status: ContactStatus;
  created_at: string;
  updated_at: string;
}

/** A message in a contact query's thread after the first: from the user or from support. */
export interface ContactRepliesTable {
  id: string;
  query_id: string;
  author_id: string | null;
  author_role: 'user' | 'support';
  author_name: string;
  message: string;
  created_at: string;
}
