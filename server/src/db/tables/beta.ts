// The beta programme: requests to join and invitation codes (migration 013).
// Row types as Kysely sees them (db/schema.ts composes every area's into `Database`).

/**
 * A request to join the beta programme (migration 013): one per user, or, from a visitor without an
 * account (migration 019: `user_id` null), one per email.
 */
export interface BetaInterestRequestsTable {
  id: string;
  user_id: string | null;
  use_case: string;
  company: string | null;
  heard_from: string | null;
  status: 'pending' | 'invited';
  created_at: string;
  updated_at: string;
  /** A visitor's email (lowercased); null for a user's request. */
  email: string | null;
  /** A visitor's name, if they gave one. */
  name: string | null;
  /** A visitor's language (en | cn), for the invitation email. */
  locale: 'en' | 'cn' | null;
}

/** An invitation code an admin made (migration 013). */
export interface InvitationCodesTable {
  id: string;
  code: string;
  max_uses: number;
  expires_at: string | null;
  note: string | null;
  created_by: string | null;
  created_at: string;
  revoked_at: string | null;
}

/** One account made with a code (each account uses at most one). */
export interface InvitationCodeUsesTable {
  id: string;
  code_id: string;
  user_id: string;
  created_at: string;
}
