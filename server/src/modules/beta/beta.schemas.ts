import { Type, type Static } from '@sinclair/typebox';
import { Id, Notices, Page, pageFields, StringEnum } from '../../http/common.schemas';

export const CodeState = StringEnum(['active', 'used_up', 'expired', 'revoked']);
export type CodeState = Static<typeof CodeState>;
export const RequestStatus = StringEnum(['pending', 'invited']);

/** As typed on the sign-up form: spaces and case do not matter (see `normalizeCode`). */
export const InvitationCodeText = Type.String({ minLength: 1, maxLength: 40 });

export const BetaRequestIn = Type.Object(
  {
    use_case: Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S' }),
    company: Type.Optional(Type.String({ maxLength: 200 })),
    heard_from: Type.Optional(Type.String({ maxLength: 200 })),
    /** A visitor's (no token): where to send the code. Required then; a signed-in user's account has one. */
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
    /** A visitor's name, for the invitation email; a signed-in user's account has one. */
    name: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type BetaRequestIn = Static<typeof BetaRequestIn>;

export const RedeemIn = Type.Object({ invitation_code: InvitationCodeText }, { additionalProperties: false });

export const BetaRequestOut = Type.Object({ status: RequestStatus, ...Notices });

export const CodesCreateIn = Type.Object(
  {
    count: Type.Integer({ minimum: 1, maximum: 100 }),
    max_uses: Type.Integer({ minimum: 1, maximum: 10_000 }),
    /** Must lie in the future. */
    expires_at: Type.Optional(Type.Union([Type.String({ format: 'date-time', maxLength: 40 }), Type.Null()])),
    note: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type CodesCreateIn = Static<typeof CodesCreateIn>;

export const InvitationCodeOut = Type.Object({
  id: Type.String(),
  code: Type.String(),
  max_uses: Type.Integer(),
  uses: Type.Integer(),
  expires_at: Type.Union([Type.String(), Type.Null()]),
  note: Type.Union([Type.String(), Type.Null()]),
  state: CodeState,
  created_at: Type.String(),
  created_by_name: Type.Union([Type.String(), Type.Null()]),
  uses_by: Type.Array(Type.Object({ name: Type.String(), email: Type.String(), used_at: Type.String() })),
});
export type InvitationCodeOut = Static<typeof InvitationCodeOut>;

export const CodesCreateOut = Type.Object({ items: Type.Array(InvitationCodeOut), ...Notices });

export const CodesQuery = Type.Object({ ...pageFields({ size: 50, maxSize: 200 }), state: Type.Optional(CodeState) }, { additionalProperties: false });
export type CodesQuery = Static<typeof CodesQuery>;
export const CodesPage = Page(InvitationCodeOut);

export const BetaRequestAdminOut = Type.Object({
  id: Type.String(),
  /** Who asked: an account (`id`), or a visitor without one (`id` null; `name` null when not given). */
  user: Type.Object({ id: Type.Union([Type.String(), Type.Null()]), name: Type.Union([Type.String(), Type.Null()]), email: Type.String() }),
  use_case: Type.String(),
  company: Type.Union([Type.String(), Type.Null()]),
  heard_from: Type.Union([Type.String(), Type.Null()]),
  status: RequestStatus,
  created_at: Type.String(),
});
export type BetaRequestAdminOut = Static<typeof BetaRequestAdminOut>;

export const RequestsQuery = Type.Object({ ...pageFields({ size: 50, maxSize: 200 }), status: Type.Optional(RequestStatus) }, { additionalProperties: false });
export type RequestsQuery = Static<typeof RequestsQuery>;
export const RequestsPage = Page(BetaRequestAdminOut);

export const InviteOut = Type.Object({ request: BetaRequestAdminOut, code: InvitationCodeOut, ...Notices });

export const SignupModeOut = Type.Object({ invite_only: Type.Boolean() });

export const BetaIdParams = Type.Object({ id: Id });
