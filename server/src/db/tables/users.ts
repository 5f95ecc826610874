// Accounts: users, their sessions and password resets (migration 001).
// Row types as Kysely sees them (db/schema.ts composes every area's into `Database`).

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  role: 'user' | 'support' | 'admin';
  locale: 'en' | 'cn';
  theme: 'light' | 'dark' | 'system';
  /** The user's own chat model (migration 008); all null: the operator's LLM_* model applies. */
  ai_base_url: string | null;
  ai_model: string | null;
  ai_provider: 'openai' | 'openai-compatible' | null;
  /** SecretBox-sealed; never returned. */
  ai_api_key_sealed: string | null;
  created_at: string;
  updated_at: string;
}

/** The user's own model columns: read only where a model is chosen, never on every request. */
export type UserModelColumn = 'ai_base_url' | 'ai_model' | 'ai_provider' | 'ai_api_key_sealed';

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
