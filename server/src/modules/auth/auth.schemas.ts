import { Type, type Static } from '@sinclair/typebox';
import { Notices } from '../../http/common.schemas';
import { UserOut } from '../users/users.schemas';
import { InvitationCodeText } from '../beta/beta.schemas';

export const Email = Type.String({ format: 'email', maxLength: 254 });
export const Password = Type.String({ minLength: 8, maxLength: 256 });

export const SignupIn = Type.Object(
  {
    email: Email,
    password: Password,
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    /** Required when BETA_INVITE_ONLY is on (see modules/beta). */
    invitation_code: Type.Optional(InvitationCodeText),
  },
  { additionalProperties: false },
);
export type SignupIn = Static<typeof SignupIn>;

export const SignupOut = Type.Object({ user: UserOut, ...Notices });
export type SignupOut = Static<typeof SignupOut>;

/** OAuth2 password form (form-encoded): `username` carries the email. */
export const LoginIn = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 256 }),
  grant_type: Type.Optional(Type.String()),
  scope: Type.Optional(Type.String()),
});
export type LoginIn = Static<typeof LoginIn>;

export const TokenOut = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('bearer'),
  /** Seconds until the token expires. */
  expires_in: Type.Integer(),
});
export type TokenOut = Static<typeof TokenOut>;

export const PasswordResetRequestIn = Type.Object({ email: Email }, { additionalProperties: false });
export type PasswordResetRequestIn = Static<typeof PasswordResetRequestIn>;

export const ResetPasswordIn = Type.Object({ token: Type.String({ minLength: 1, maxLength: 512 }), new_password: Password }, { additionalProperties: false });
export type ResetPasswordIn = Static<typeof ResetPasswordIn>;
