import { randomUUID } from 'node:crypto';
import type { Config } from '../../config/config';
import type { Db } from '../../db/database';
import { translate, type Language } from '../../i18n/messages';
import { isUniqueViolation } from '../../lib/db-errors';
import { conflict, invalid, notFound } from '../../lib/errors';
import type { Log } from '../../lib/logger';
import { escapeHtml, languageOfLocale, localePath } from '../../mail/email-text';
import type { Mailer } from '../../mail/mailer';
import { ADMIN, isStaff, requireRole } from '../users/roles';
import type { BetaStatusOut, Role } from '../users/users.schemas';
import { BetaRepository, stateOf, type BetaRequestWithUser, type CodeWithUses, type InvitationCodeRow } from './beta.repository';
import type { BetaRequestAdminOut, BetaRequestIn, CodesCreateIn, CodesQuery, InvitationCodeOut, RequestsQuery } from './beta.schemas';
import { newCodeText, normalizeCode } from './invitation-code-text';

export interface BetaViewer {
  id: string;
  role: Role;
}

/** Where a refused code is answered: under the sign-up form's field. */
const CODE_LOC = ['body', 'invitation_code'];
const REFUSAL: Record<'used_up' | 'expired' | 'revoked', string> = {
  used_up: 'server.beta.codeUsedUp',
  expired: 'server.beta.codeExpired',
  revoked: 'server.beta.codeRevoked',
};
/** Fresh codes colliding with stored ones is rare (≈40 bits each); a few tries make it vanish. */
const CODE_BATCH_TRIES = 5;

/**
 * Sign-up's gate, run inside the transaction that inserts the user: with invite-only mode a code
 * is required (emails in ADMIN_EMAILS excepted: someone must be able to make the first codes);
 * a code that is given is checked and its use recorded in any mode. The code's row is locked
 * first, so of two sign-ups racing for its last use exactly one wins.
 */
export async function admitSignup(trx: Db, options: { inviteOnly: boolean; exempt: boolean; typedCode: string | undefined; userId: string }): Promise<void> {
  const typed = options.typedCode === undefined ? '' : normalizeCode(options.typedCode);
  if (!typed) {
    if (options.inviteOnly && !options.exempt) throw invalid('server.beta.codeRequired', CODE_LOC);
    return;
  }
  await redeem(trx, typed, options.userId);
}

/** Records one use of an active code by this user (the caller's transaction holds the code's lock). */
async function redeem(trx: Db, typed: string, userId: string): Promise<void> {
  const codes = new BetaRepository(trx);
  const codeId = await codes.lockCode(typed);
  const code = codeId ? await codes.findCode(codeId) : undefined;
  if (!code) throw invalid('server.beta.codeUnknown', CODE_LOC);
  const now = new Date().toISOString();
  const state = stateOf(code, Number(code.uses), now);
  if (state !== 'active') throw invalid(REFUSAL[state], CODE_LOC);
  await codes.insertUse({ id: randomUUID(), code_id: code.id, user_id: userId, created_at: now });
}

/**
 * The beta programme: users ask to join, admins make invitation codes (and invite those who
 * asked), and `BETA_INVITE_ONLY` makes sign-up need a code (see `admitSignup`).
 */
export class BetaService {
  private readonly beta: BetaRepository;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly mailer: Mailer,
    private readonly log: Log,
  ) {
    this.beta = new BetaRepository(db);
  }

  signupMode(): { invite_only: boolean } {
    return { invite_only: this.config.beta.inviteOnly };
  }

  /**
   * A member came in with a code. Everyone has access while sign-up is open; in invite-only mode,
   * members and staff do (an account made before the switch keeps working, but is told it is not
   * a member, so the beta page can offer to ask).
   */
  async status(user: BetaViewer): Promise<BetaStatusOut> {
    const inviteOnly = this.config.beta.inviteOnly;
    const member = await this.beta.hasUsedCode(user.id);
    const request = member ? undefined : await this.beta.findRequestOf(user.id);
    const status = member ? 'member' : request ? (request.status === 'invited' ? 'invited' : 'requested') : 'none';
    return {
      has_access: !inviteOnly || member || isStaff(user),
      invite_only: inviteOnly,
      status,
      requested_at: request?.created_at ?? null,
    };
  }

  /**
   * An account made before invite-only mode (or one that asked and was invited) joins with a code,
   * like a sign-up would; an account that already used a code keeps the one it used.
   */
  async redeem(user: BetaViewer, typedCode: string): Promise<BetaStatusOut> {
    if (await this.beta.hasUsedCode(user.id)) throw conflict('server.beta.alreadyMember');
    const typed = normalizeCode(typedCode);
    if (!typed) throw invalid('server.beta.codeUnknown', CODE_LOC);
    await this.db.transaction().execute((trx) => redeem(trx, typed, user.id));
    return this.status(user);
  }

  async request(user: BetaViewer, input: BetaRequestIn): Promise<{ status: 'pending' | 'invited'; again: boolean }> {
    const now = new Date().toISOString();
    const before = await this.beta.findRequestOf(user.id);
    const saved = await this.beta.upsertRequest({
      id: randomUUID(),
      user_id: user.id,
      email: null,
      name: null,
      locale: null,
      use_case: input.use_case.trim(),
      company: input.company?.trim() || null,
      heard_from: input.heard_from?.trim() || null,
      status: 'pending',
      created_at: now,
      updated_at: now,
    });
    return { status: saved.status, again: before !== undefined };
  }

  /**
   * A visitor (no account, so no token) asks for a code: in invite-only mode they cannot make an
   * account without one. One request per email; asking again with the same email leaves the first
   * as it is (anyone may type any email) and is answered the same, so the answer tells nothing
   * about who asked before.
   */
  async requestAsVisitor(input: BetaRequestIn, language: Language): Promise<void> {
    const email = input.email?.trim().toLowerCase();
    if (!email) throw invalid('server.beta.visitorEmailRequired', ['body', 'email']);
    const now = new Date().toISOString();
    await this.beta.insertVisitorRequest({
      id: randomUUID(),
      user_id: null,
      email,
      name: input.name?.trim() || null,
      locale: language === 'zh-CN' ? 'cn' : 'en',
      use_case: input.use_case.trim(),
      company: input.company?.trim() || null,
      heard_from: input.heard_from?.trim() || null,
      status: 'pending',
      created_at: now,
      updated_at: now,
    });
  }

  async createCodes(admin: BetaViewer, input: CodesCreateIn): Promise<InvitationCodeOut[]> {
    requireRole(admin, ADMIN);
    const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
    // A date the format lets through but the calendar does not (month 13) is no expiry either.
    if (expiresAt && (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= Date.now()))
      throw invalid('server.beta.expiryInPast', ['body', 'expires_at']);
    const ids = await this.insertFreshCodes(input.count, {
      max_uses: input.max_uses,
      expires_at: expiresAt?.toISOString() ?? null,
      note: input.note?.trim() || null,
      created_by: admin.id,
    });
    return Promise.all(ids.map((id) => this.code(id)));
  }

  async listCodes(admin: BetaViewer, query: CodesQuery) {
    requireRole(admin, ADMIN);
    const now = new Date().toISOString();
    const { rows, total } = await this.beta.listCodes({ state: query.state, now, limit: query.page_size, offset: (query.page - 1) * query.page_size });
    return { items: await this.withUses(rows, now), total, page: query.page, page_size: query.page_size };
  }

  async revoke(admin: BetaViewer, id: string): Promise<InvitationCodeOut> {
    requireRole(admin, ADMIN);
    if (!(await this.beta.findCode(id))) throw notFound();
    await this.beta.revoke(id, new Date().toISOString());
    return this.code(id);
  }

  async listRequests(admin: BetaViewer, query: RequestsQuery) {
    requireRole(admin, ADMIN);
    const { rows, total } = await this.beta.listRequests({ status: query.status, limit: query.page_size, offset: (query.page - 1) * query.page_size });
    return { items: rows.map(toRequestOut), total, page: query.page, page_size: query.page_size };
  }

  /** A one-use code for the person who asked, emailed to them; the request is marked invited. */
  async invite(admin: BetaViewer, requestId: string): Promise<{ request: BetaRequestAdminOut; code: InvitationCodeOut }> {
    requireRole(admin, ADMIN);
    const request = await this.beta.findRequest(requestId);
    if (!request) throw notFound();
    const [codeId] = await this.insertFreshCodes(1, { max_uses: 1, expires_at: null, note: request.user_email, created_by: admin.id });
    await this.beta.markInvited(request.id, new Date().toISOString());
    const code = await this.code(codeId);
    await this.emailInvitation(request, code.code);
    return { request: toRequestOut((await this.beta.findRequest(request.id))!), code };
  }

  private async code(id: string): Promise<InvitationCodeOut> {
    const row = await this.beta.findCode(id);
    if (!row) throw notFound();
    const [out] = await this.withUses([row], new Date().toISOString());
    return out;
  }

  private async withUses(rows: CodeWithUses[], now: string): Promise<InvitationCodeOut[]> {
    const uses = await this.beta.usesOf(rows.map((r) => r.id));
    return rows.map((row) => ({
      id: row.id,
      code: row.code,
      max_uses: row.max_uses,
      uses: Number(row.uses),
      expires_at: row.expires_at,
      note: row.note,
      state: stateOf(row, Number(row.uses), now),
      created_at: row.created_at,
      created_by_name: row.created_by_name,
      uses_by: uses.filter((u) => u.code_id === row.id).map((u) => ({ name: u.name, email: u.email, used_at: u.used_at })),
    }));
  }

  /** Inserts `count` new codes in one statement; a collision with a stored code retries the batch. */
  private async insertFreshCodes(count: number, fields: Pick<InvitationCodeRow, 'max_uses' | 'expires_at' | 'note' | 'created_by'>): Promise<string[]> {
    for (let attempt = 1; ; attempt++) {
      const texts = new Set<string>();
      while (texts.size < count) texts.add(newCodeText());
      // Spaced by a millisecond each, so the newest-first list keeps the order they were made in.
      const base = Date.now();
      const rows = [...texts].map((code, i) => ({ id: randomUUID(), code, ...fields, created_at: new Date(base + i).toISOString(), revoked_at: null }));
      try {
        await this.beta.insertCodes(rows);
        return rows.map((r) => r.id);
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= CODE_BATCH_TRIES) throw error;
      }
    }
  }

  /**
   * The invitation is made either way; a mail server being down is logged, and the admin can copy the code.
   * A user joins on the beta page; a visitor signs up, with the code filled in by the link.
   */
  private async emailInvitation(request: BetaRequestWithUser, code: string): Promise<void> {
    const language = languageOfLocale(request.user_locale);
    const visitor = request.user_id === null;
    const where = visitor ? `/signup?code=${encodeURIComponent(code)}` : '/beta';
    const link = `${this.config.publicUrl}${localePath(request.user_locale)}${where}`;
    const name = request.user_name ?? translate(language, 'server.beta.email.nameless');
    const values = { name, code, link };
    const texts = visitor ? 'server.beta.email.visitor' : 'server.beta.email';
    try {
      await this.mailer.send({
        to: request.user_email,
        subject: translate(language, 'server.beta.email.subject'),
        text: translate(language, `${texts}.text`, values),
        html: translate(language, `${texts}.html`, { ...values, name: escapeHtml(name), link: escapeHtml(link) }),
      });
    } catch (err) {
      this.log.error({ err, requestId: request.id }, 'could not email a beta invitation');
    }
  }
}

const toRequestOut = (row: BetaRequestWithUser): BetaRequestAdminOut => ({
  id: row.id,
  user: { id: row.user_id, name: row.user_name, email: row.user_email },
  use_case: row.use_case,
  company: row.company,
  heard_from: row.heard_from,
  status: row.status,
  created_at: row.created_at,
});
