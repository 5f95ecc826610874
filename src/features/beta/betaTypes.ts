import type { Static } from '@sinclair/typebox';
import type {
  BetaRequestAdminOut,
  BetaRequestIn,
  BetaRequestOut as BetaRequestOutSchema,
  CodesCreateIn,
  CodesCreateOut,
  CodesPage,
  CodeState,
  InvitationCodeOut,
  InviteOut as InviteOutSchema,
  RedeemIn as RedeemInSchema,
  RequestsPage,
  RequestStatus,
  SignupModeOut,
} from '../../../server/src/modules/beta/beta.schemas';
import type { BetaStatusOut } from '../../../server/src/modules/users/users.schemas';

// The beta programme's shapes, from the server's own schemas (issue 11's contract, "Beta").

/** member: may use the product (or signed up with a code); requested: asked, waiting; invited: a code was sent. */
export type BetaStatus = BetaStatusOut;
export type BetaMembership = BetaStatus['status'];

export type { BetaRequestIn };
/** A visitor's request (no account): the email to send the code to is required, the name optional. */
export type VisitorRequestIn = BetaRequestIn & { email: string };
/** The request's status, and the server's thanks (`message`), shown as a notice. */
export type BetaRequestOut = Static<typeof BetaRequestOutSchema>;
/** `POST /beta-interest/redeem`: join with an invitation code; answers the new beta status. */
export type RedeemIn = Static<typeof RedeemInSchema>;

export type InvitationState = CodeState;
export const INVITATION_STATES: readonly InvitationState[] = ['active', 'used_up', 'expired', 'revoked'];

export type InvitationCode = InvitationCodeOut;
export type InvitationCodesCreateIn = CodesCreateIn;
/** The new codes, and the server's notice. */
export type InvitationCodesCreateOut = Static<typeof CodesCreateOut>;

export type BetaRequestStatus = Static<typeof RequestStatus>;
export type BetaInterestRequest = BetaRequestAdminOut;
/** The request (now invited), the one-use code emailed for it, and the server's notice. */
export type InviteOut = Static<typeof InviteOutSchema>;

export type SignupMode = Static<typeof SignupModeOut>;

export type InvitationCodePage = Static<typeof CodesPage>;
export type BetaInterestRequestPage = Static<typeof RequestsPage>;

/** The server's input limits (beta.schemas). */
export const USE_CASE_MAX = 2000;
export const COMPANY_MAX = 200;
export const HEARD_FROM_MAX = 200;
export const NOTE_MAX = 500;
export const CODES_PER_BATCH_MAX = 100;
export const MAX_USES_MAX = 10_000;
export const INVITATION_CODE_MAX = 40;
export const VISITOR_EMAIL_MAX = 254;
export const VISITOR_NAME_MAX = 100;
