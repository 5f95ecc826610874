import { Type, type Static } from '@sinclair/typebox';
import { Notices, StringEnum } from '../../http/common.schemas';

export const Role = StringEnum(['user', 'support', 'admin']);
export type Role = Static<typeof Role>;

/** Interface languages; `cn` is the spec's value for Chinese (NEXT_LOCALE=cn). */
export const Locale = StringEnum(['en', 'cn']);
export type Locale = Static<typeof Locale>;

export const Theme = StringEnum(['light', 'dark', 'system']);
export type Theme = Static<typeof Theme>;

export const UserOut = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: Role,
  locale: Locale,
  theme: Theme,
  created_at: Type.String({ format: 'date-time' }),
});
export type UserOut = Static<typeof UserOut>;

export const SettingsOut = Type.Object({
  display_name: Type.String(),
  locale: Locale,
  theme: Theme,
  ...Notices,
});
export type SettingsOut = Static<typeof SettingsOut>;

export const SettingsPatchIn = Type.Object(
  {
    display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' })),
    locale: Type.Optional(Locale),
    theme: Type.Optional(Theme),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type SettingsPatchIn = Static<typeof SettingsPatchIn>;

export const BetaStatusOut = Type.Object({
  /** Whether this user may use the product. Everyone until invite-only mode exists (issue 6/6). */
  has_access: Type.Boolean(),
  invite_only: Type.Boolean(),
});
export type BetaStatusOut = Static<typeof BetaStatusOut>;
