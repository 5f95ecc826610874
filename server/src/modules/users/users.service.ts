import type { Db } from '../../db/database';
import { checkUrl } from '../../engine/outbound-http';
import { invalid, notFound } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import type { AiModelIn, SettingsOut, SettingsPatchIn, UserOut } from './users.schemas';
import { UsersRepository, type UserRow, type UserSettingsUpdate } from './users.repository';

/** The public view of a user: never the password hash. */
export function toUserOut(user: Pick<UserRow, 'id' | 'email' | 'name' | 'role' | 'locale' | 'theme' | 'created_at'>): UserOut {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    locale: user.locale,
    theme: user.theme,
    created_at: user.created_at,
  };
}

const toSettingsOut = (user: UserRow): SettingsOut => ({
  display_name: user.name,
  locale: user.locale,
  theme: user.theme,
  ai_model: user.ai_model
    ? { base_url: user.ai_base_url, model: user.ai_model, provider: user.ai_provider ?? 'openai-compatible', has_api_key: user.ai_api_key_sealed !== null }
    : null,
});

export class UsersService {
  private readonly users: UsersRepository;

  constructor(
    db: Db,
    private readonly secrets: SecretBox,
  ) {
    this.users = new UsersRepository(db);
  }

  async settings(userId: string): Promise<SettingsOut> {
    return toSettingsOut(await this.load(userId));
  }

  async updateSettings(userId: string, patch: SettingsPatchIn): Promise<SettingsOut> {
    const updated = await this.users.update(userId, {
      ...(patch.display_name !== undefined ? { name: patch.display_name.trim() } : {}),
      ...(patch.locale !== undefined ? { locale: patch.locale } : {}),
      ...(patch.theme !== undefined ? { theme: patch.theme } : {}),
      ...(patch.ai_model !== undefined ? this.modelColumns(patch.ai_model) : {}),
    });
    if (!updated) throw notFound();
    return toSettingsOut(updated);
  }

  /** The columns for a user's own model; the API key is sealed, and kept when not sent. */
  private modelColumns(model: AiModelIn | null): UserSettingsUpdate {
    if (model === null) return { ai_base_url: null, ai_model: null, ai_provider: null, ai_api_key_sealed: null };
    let baseUrl: string | null = null;
    if (model.base_url !== null) {
      try {
        baseUrl = checkUrl(model.base_url.trim()).href.replace(/\/+$/, '');
      } catch {
        throw invalid('server.settings.aiBaseUrlInvalid', ['body', 'ai_model', 'base_url']);
      }
    }
    return {
      ai_base_url: baseUrl,
      ai_model: model.model.trim(),
      ai_provider: model.provider ?? 'openai-compatible',
      ...(model.api_key !== undefined ? { ai_api_key_sealed: model.api_key === null ? null : this.secrets.seal(model.api_key) } : {}),
    };
  }

  private async load(userId: string): Promise<UserRow> {
    const user = await this.users.findById(userId);
    if (!user) throw notFound();
    return user;
  }
}
