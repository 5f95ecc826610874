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

export const AiProvider = StringEnum(['openai-compatible', 'openai']);

/** The user's own chat model; the key is never returned, only whether one is kept. */
export const AiModelOut = Type.Object({
  base_url: Type.Union([Type.String(), Type.Null()]),
  model: Type.String(),
  provider: AiProvider,
  has_api_key: Type.Boolean(),
});
export type AiModelOut = Static<typeof AiModelOut>;

export const AiModelIn = Type.Object(
  {
    base_url: Type.Union([
      Type.String({ minLength: 1, maxLength: 2000, description: 'An OpenAI-compatible API, e.g. http://localhost:11434/v1; null: OpenAI' }),
      Type.Null(),
    ]),
    model: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    provider: Type.Optional(AiProvider),
    api_key: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 1000 }), Type.Null()], { description: 'Omitted: keep the stored key; null: remove it' }),
    ),
  },
  { additionalProperties: false },
);
export type AiModelIn = Static<typeof AiModelIn>;

export const SettingsOut = Type.Object({
  display_name: Type.String(),
  locale: Locale,
  theme: Theme,
  /** Null: agents and AI steps use the server's model. */
  ai_model: Type.Union([AiModelOut, Type.Null()]),
  ...Notices,
});
export type SettingsOut = Static<typeof SettingsOut>;

export const SettingsPatchIn = Type.Object(
  {
    display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' })),
    locale: Type.Optional(Locale),
    theme: Type.Optional(Theme),
    /** Null: forget the user's own model (and its key). */
    ai_model: Type.Optional(Type.Union([AiModelIn, Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type SettingsPatchIn = Static<typeof SettingsPatchIn>;

export const BetaStatusOut = Type.Object({
  /** Sign-up is open, or the user came in with an invitation code, or is staff. */
  has_access: Type.Boolean(),
  invite_only: Type.Boolean(),
  /** member: signed up (or joined) with a code; requested / invited: asked to join; none: neither. */
  status: StringEnum(['member', 'requested', 'invited', 'none']),
  requested_at: Type.Union([Type.String(), Type.Null()]),
});
export type BetaStatusOut = Static<typeof BetaStatusOut>;
