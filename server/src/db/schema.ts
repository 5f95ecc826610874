
// Row types of every table, as Kysely sees them. Timestamps are ISO-8601 strings in UTC on both
// databases (timestamptz on PostgreSQL is parsed back to ISO strings in database.ts), ids are
// text UUIDs, so the services never branch on the dialect.

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  role: 'user' | 'support' | 'admin';
  locale: 'en' | 'cn';
  theme: 'light' | 'dark' | 'system';
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  /** SHA-256 of the bearer token; the token itself is never stored. */
  token_hash: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  user_agent: string | null;
  ip: string | null;
}

export interface PasswordResetTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  password_reset_tokens: PasswordResetTokensTable;
}

