import type { PageOf } from '../../../server/src/http/common.schemas';
import type { BetaStatusOut } from '../../../server/src/modules/users/users.schemas';

// The beta programme's shapes (issue 11's contract, "Beta"). They mirror the server's beta
// schemas; once those are on main these become `Static<typeof …>` of them.

/** member: may use the product (or signed up with a code); requested: asked, waiting; invited: a code was sent. */
export type BetaMembership = 'member' | 'requested' | 'invited' | 'none';

export interface BetaStatus extends BetaStatusOut {
  status: BetaMembership;
  requested_at: string | null;
}

export interface BetaRequestIn {
  use_case: string;
  company?: string;
  heard_from?: string;
}

export interface BetaRequestOut {
  status: string;
  message: string;
}

export const INVITATION_STATES = ['active', 'used_up', 'expired', 'revoked'] as const;
export type InvitationState = (typeof INVITATION_STATES)[number];

export interface InvitationCode {
  id: string;
  code: string;
  max_uses: number;
  uses: number;
  expires_at: string | null;
  note: string | null;
  state: InvitationState;
  created_at: string;
  created_by_name: string | null;
  uses_by: { name: string; email: string; used_at: string }[];
}

export interface InvitationCodesCreateIn {
  count: number;
  max_uses: number;
  expires_at?: string;
  note?: string;
}

export type BetaRequestStatus = 'pending' | 'invited';

export interface BetaInterestRequest {
  id: string;
  user: { id: string; name: string; email: string };
  use_case: string;
  company: string | null;
  heard_from: string | null;
  status: BetaRequestStatus;
  created_at: string;
}

export interface SignupMode {
  invite_only: boolean;
}

export type InvitationCodePage = PageOf<InvitationCode>;
export type BetaInterestRequestPage = PageOf<BetaInterestRequest>;

/** The server's input limits. */
export const USE_CASE_MAX = 2000;
export const COMPANY_MAX = 200;
export const HEARD_FROM_MAX = 200;
export const NOTE_MAX = 500;
export const CODES_PER_BATCH_MAX = 100;
export const MAX_USES_MAX = 10_000;
