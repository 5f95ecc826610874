import type { Db } from '../../db/database';
import { notFound } from '../../lib/errors';
import type { BetaStatusOut, SettingsOut, SettingsPatchIn, UserOut } from './users.schemas';
import { UsersRepository, type UserRow } from './users.repository';

/** The public view of a user: never the password hash. */
export function toUserOut(user: Omit<UserRow, 'password_hash'>): UserOut {
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

const toSettingsOut = (user: UserRow): SettingsOut => ({ display_name: user.name, locale: user.locale, theme: user.theme });

export class UsersService {
  private readonly users: UsersRepository;

  constructor(db: Db) {
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
    });
    if (!updated) throw notFound();
    return toSettingsOut(updated);
  }

  /** Everyone has access until invite-only mode arrives with the beta programme (issue 6/6). */
  async betaStatus(userId: string): Promise<BetaStatusOut> {
    await this.load(userId);
    return { has_access: true, invite_only: false };
  }

  private async load(userId: string): Promise<UserRow> {
    const user = await this.users.findById(userId);
    if (!user) throw notFound();
    return user;
  }
}
