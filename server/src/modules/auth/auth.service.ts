import type { Log } from '../../lib/logger';
import type { Config } from '../../config/config';
import type { Db } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import { escapeHtml } from '../../mail/email-text';
import { translate, type Language } from '../../i18n/messages';
import { conflict, rejected, unauthenticated, ValidationFailed } from '../../lib/errors';
import { isUniqueViolation } from '../../lib/db-errors';
import { grantSignupCredits } from '../usage/signup-grant';
import { UserAccountsService } from '../users/user-accounts.service';
import { admitSignup } from '../beta/beta.service';
import { toUserOut } from '../users/users.service';
import type { UserOut } from '../users/users.schemas';
import type { SignupIn, TokenOut } from './auth.schemas';
import { hashPassword, verifyPassword } from './passwords';
import { PasswordResetsRepository } from './password-resets.repository';
import { weakPasswordProblem } from './password-strength';
import { SessionsRepository } from './sessions.repository';
import { hashToken, newToken } from './tokens';

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

interface ClientInfo {
  userAgent: string | null;
  ip: string | null;
}

export class AuthService {
  private readonly users: UserAccountsService;
  private readonly sessions: SessionsRepository;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly mailer: Mailer,
    private readonly log: Log,
  ) {
    this.users = new UserAccountsService(db);
    this.sessions = new SessionsRepository(db);
  }

  async signup(input: SignupIn, language: Language): Promise<UserOut> {
    const email = normalizeEmail(input.email);
    await refuseWeakPassword(input.password, { email, name: input.name }, language, ['body', 'password']);
    if (await this.users.byEmail(email)) throw conflict('server.auth.emailTaken');
    const passwordHash = await hashPassword(input.password);
    try {
      // One transaction: an invitation code's use and the sign-up credits are recorded with the account, or none is.
      const user = await this.db.transaction().execute(async (trx) => {
        const user = await new UserAccountsService(trx).create({
          email,
          name: input.name.trim(),
          password_hash: passwordHash,
          role: this.config.adminEmails.has(email) ? 'admin' : 'user',
          locale: language === 'zh-CN' ? 'cn' : 'en',
        });
        await admitSignup(trx, {
          inviteOnly: this.config.beta.inviteOnly,
          exempt: this.config.adminEmails.has(email),
          typedCode: input.invitation_code,
          userId: user.id,
        });
        await grantSignupCredits(trx, this.config.billing, user.id, language);
        return user;
      });
      return toUserOut(user);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('server.auth.emailTaken');
      throw error;
    }
  }

  /** Answers the same 401 for an unknown email and a wrong password, in about the same time. */
  async login(username: string, password: string, client: ClientInfo): Promise<TokenOut> {
    const email = normalizeEmail(username);
    const user = await this.users.byEmail(email);
    const ok = await verifyPassword(user?.password_hash ?? null, password);
    if (!user || !ok) throw unauthenticated('server.auth.invalidCredentials');
    if (this.config.adminEmails.has(email) && user.role !== 'admin') {
      await this.users.update(user.id, { role: 'admin' });
    }
    const { token, hash } = newToken();
    const ttlSeconds = Math.round(this.config.sessionTtlHours * 3600);
    await this.sessions.create({
      userId: user.id,
      tokenHash: hash,
      expiresAt: new Date(Date.now() + ttlSeconds * 1000).toISOString(),
      ...client,
    });
    return { access_token: token, token_type: 'bearer', expires_in: ttlSeconds };
  }

  logout(sessionId: string): Promise<void> {
    return this.sessions.revoke(sessionId);
  }

  /**
   * Sends a single-use, expiring link when the account exists. The caller answers the same either
   * way, and the mail goes out after the answer so the timing does not tell either.
   */
  async requestPasswordReset(rawEmail: string): Promise<void> {
    const user = await this.users.byEmail(normalizeEmail(rawEmail));
    if (!user) return;
    const { token, hash } = newToken();
    await new PasswordResetsRepository(this.db).create({
      userId: user.id,
      tokenHash: hash,
      expiresAt: new Date(Date.now() + this.config.passwordResetTtlMinutes * 60_000).toISOString(),
    });
    const language: Language = user.locale === 'cn' ? 'zh-CN' : 'en';
    const link = `${this.config.publicUrl}${user.locale === 'cn' ? '/cn' : ''}/reset-password?token=${encodeURIComponent(token)}`;
    const values = { name: user.name, link, minutes: this.config.passwordResetTtlMinutes };
    const sending = this.mailer.send({
      to: user.email,
      subject: translate(language, 'server.email.reset.subject'),
      text: translate(language, 'server.email.reset.text', values),
      html: translate(language, 'server.email.reset.html', { ...values, name: escapeHtml(user.name) }),
    });
    sending.catch((err) => this.log.error({ err, userId: user.id }, 'could not send the password reset email'));
  }

  /** Sets the new password, spends the link, and ends every session of that user. */
  /**
   * The link is checked first (a dead link answers 400 whatever the password), then the password
   * against the account's own email and name, and only then is the link spent: a refused password
   * leaves the link usable for a better one.
   */
  async resetPassword(token: string, newPassword: string, language: Language): Promise<void> {
    const now = new Date().toISOString();
    const resets = new PasswordResetsRepository(this.db);
    const userId = await resets.findLive(hashToken(token), now);
    const user = userId ? await this.users.byId(userId) : undefined;
    if (!user) throw rejected('server.auth.resetTokenInvalid');
    await refuseWeakPassword(newPassword, user, language, ['body', 'new_password']);
    const passwordHash = await hashPassword(newPassword);
    await this.db.transaction().execute(async (trx) => {
      const resets = new PasswordResetsRepository(trx);
      const spentAt = new Date().toISOString();
      // Spent by one conditional update: of two requests racing with the same link, one wins.
      if ((await resets.consume(hashToken(token), spentAt)) !== user.id) throw rejected('server.auth.resetTokenInvalid');
      await new UserAccountsService(trx).update(user.id, { password_hash: passwordHash });
      await resets.invalidateAllForUser(user.id, spentAt);
      await new SessionsRepository(trx).revokeAllForUser(user.id);
    });
  }
}

/** Every way of setting a password goes through here (sign-up, reset; a future change-password too). */
async function refuseWeakPassword(password: string, who: { email: string; name: string }, language: Language, loc: string[]): Promise<void> {
  const problem = await weakPasswordProblem(password, who, language, loc);
  if (problem) throw new ValidationFailed([problem]);
}
