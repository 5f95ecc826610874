import { sql, type Selectable } from 'kysely';
import type { BetaInterestRequestsTable, InvitationCodesTable } from '../../db/schema';
import type { Db } from '../../db/database';

export type InvitationCodeRow = Selectable<InvitationCodesTable>;
export type BetaRequestRow = Selectable<BetaInterestRequestsTable>;
export type CodeState = 'active' | 'used_up' | 'expired' | 'revoked';

export interface CodeWithUses extends InvitationCodeRow {
  uses: number;
  created_by_name: string | null;
}

/** A request with whom to write to: the account's name, email and language, or the visitor's own. */
export interface BetaRequestWithUser extends BetaRequestRow {
  user_name: string | null;
  user_email: string;
  user_locale: 'en' | 'cn';
}

/** Invitation codes, their uses and beta interest requests (migration 013). */
export class BetaRepository {
  constructor(private readonly db: Db) {}

  async insertCodes(rows: InvitationCodeRow[]): Promise<void> {
    await this.db.insertInto('invitation_codes').values(rows).execute();
  }

  /**
   * Takes the code's row lock for the rest of the transaction (a no-op write, which both databases
   * honour, unlike SELECT … FOR UPDATE), so sign-ups racing for a code's last use queue up and the
   * later one counts the earlier one's use. Answers the code's id, or undefined for no such code.
   */
  async lockCode(code: string): Promise<string | undefined> {
    const row = await this.db
      .updateTable('invitation_codes')
      .set((eb) => ({ max_uses: eb.ref('max_uses') }))
      .where('code', '=', code)
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  }

  async insertUse(row: { id: string; code_id: string; user_id: string; created_at: string }): Promise<void> {
    await this.db.insertInto('invitation_code_uses').values(row).execute();
  }

  async revoke(id: string, at: string): Promise<void> {
    await this.db.updateTable('invitation_codes').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
  }

  findCode(id: string): Promise<CodeWithUses | undefined> {
    return this.codesWithUses().where('c.id', '=', id).executeTakeFirst();
  }

  /** One page of codes, the newest first, optionally in one state as of `now`. */
  async listCodes(filter: { state?: CodeState; now: string; limit: number; offset: number }): Promise<{ rows: CodeWithUses[]; total: number }> {
    const inState = filter.state ? stateCondition(filter.state, filter.now) : sql<boolean>`1 = 1`;
    const [rows, counted] = await Promise.all([
      this.codesWithUses().where(inState).orderBy('c.created_at', 'desc').orderBy('c.id').limit(filter.limit).offset(filter.offset).execute(),
      this.db
        .selectFrom('invitation_codes as c')
        .where(inState)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(counted.n) };
  }

  /** Who used these codes, oldest use first. */
  usesOf(codeIds: string[]) {
    if (codeIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('invitation_code_uses as cu')
      .innerJoin('users as u', 'u.id', 'cu.user_id')
      .where('cu.code_id', 'in', codeIds)
      .select(['cu.code_id', 'u.name', 'u.email', 'cu.created_at as used_at'])
      .orderBy('cu.created_at')
      .execute();
  }

  /** Whether the user signed up with a code. */
  async hasUsedCode(userId: string): Promise<boolean> {
    return (await this.db.selectFrom('invitation_code_uses').select('id').where('user_id', '=', userId).executeTakeFirst()) !== undefined;
  }

  findRequestOf(userId: string): Promise<BetaRequestRow | undefined> {
    return this.db.selectFrom('beta_interest_requests').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  /** A second request from the same user replaces what the first said (and keeps its status). */
  async upsertRequest(row: BetaRequestRow): Promise<BetaRequestRow> {
    return this.db
      .insertInto('beta_interest_requests')
      .values(row)
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({ use_case: row.use_case, company: row.company, heard_from: row.heard_from, updated_at: row.updated_at }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * A visitor's request, unless that email already asked: the first one stands (anyone may type any
   * email, so a later one must not rewrite what its owner said). Answers whether it was stored.
   */
  async insertVisitorRequest(row: BetaRequestRow): Promise<boolean> {
    const stored = await this.db
      .insertInto('beta_interest_requests')
      .values(row)
      .onConflict((oc) => oc.column('email').doNothing())
      .returning('id')
      .executeTakeFirst();
    return stored !== undefined;
  }

  findRequest(id: string): Promise<BetaRequestWithUser | undefined> {
    return this.requestsWithUser().where('r.id', '=', id).executeTakeFirst();
  }

  async markInvited(id: string, at: string): Promise<void> {
    await this.db.updateTable('beta_interest_requests').set({ status: 'invited', updated_at: at }).where('id', '=', id).execute();
  }

  async listRequests(filter: { status?: 'pending' | 'invited'; limit: number; offset: number }): Promise<{ rows: BetaRequestWithUser[]; total: number }> {
    let rows = this.requestsWithUser();
    let count = this.db.selectFrom('beta_interest_requests as r').select((eb) => eb.fn.countAll<number>().as('n'));
    if (filter.status) {
      rows = rows.where('r.status', '=', filter.status);
      count = count.where('r.status', '=', filter.status);
    }
    const [page, counted] = await Promise.all([
      rows.orderBy('r.created_at', 'desc').orderBy('r.id').limit(filter.limit).offset(filter.offset).execute(),
      count.executeTakeFirstOrThrow(),
    ]);
    return { rows: page, total: Number(counted.n) };
  }

  private requestsWithUser() {
    return this.db
      .selectFrom('beta_interest_requests as r')
      .leftJoin('users as u', 'u.id', 'r.user_id')
      .selectAll('r')
      .select((eb) => [
        eb.fn.coalesce('u.name', 'r.name').as('user_name'),
        eb.fn.coalesce('u.email', 'r.email').$castTo<string>().as('user_email'),
        eb.fn.coalesce('u.locale', 'r.locale', sql.lit('en')).$castTo<'en' | 'cn'>().as('user_locale'),
      ]);
  }

  private codesWithUses() {
    return this.db
      .selectFrom('invitation_codes as c')
      .leftJoin('users as creator', 'creator.id', 'c.created_by')
      .selectAll('c')
      .select('creator.name as created_by_name')
      .select((eb) =>
        eb
          .selectFrom('invitation_code_uses as cu')
          .whereRef('cu.code_id', '=', 'c.id')
          .select((e) => e.fn.countAll<number>().as('n'))
          .as('uses'),
      )
      .$castTo<CodeWithUses>();
  }
}

const usesOfCode = sql<number>`(select count(*) from invitation_code_uses as use_count where use_count.code_id = c.id)`;

/** A code's state as of `now`, in SQL: revoked, else expired, else used up, else active (the order `stateOf` uses). */
function stateCondition(state: CodeState, now: string) {
  const notRevoked = sql<boolean>`c.revoked_at is null`;
  const notExpired = sql<boolean>`(c.expires_at is null or c.expires_at > ${now})`;
  switch (state) {
    case 'revoked':
      return sql<boolean>`c.revoked_at is not null`;
    case 'expired':
      return sql<boolean>`${notRevoked} and c.expires_at is not null and c.expires_at <= ${now}`;
    case 'used_up':
      return sql<boolean>`${notRevoked} and ${notExpired} and ${usesOfCode} >= c.max_uses`;
    case 'active':
      return sql<boolean>`${notRevoked} and ${notExpired} and ${usesOfCode} < c.max_uses`;
  }
}

/** The same rule for one code in hand. */
export function stateOf(code: { revoked_at: string | null; expires_at: string | null; max_uses: number }, uses: number, now: string): CodeState {
  if (code.revoked_at) return 'revoked';
  if (code.expires_at && Date.parse(code.expires_at) <= Date.parse(now)) return 'expired';
  if (uses >= code.max_uses) return 'used_up';
  return 'active';
}
