import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Database, ContactQueriesTable, ContactRepliesTable, ContactCategory, ContactStatus } from '../../db/schema';
import type { Db } from '../../db/database';
import { containsText } from '../../db/text-match';

export type ContactQueryRow = Selectable<ContactQueriesTable>;
export type ContactReplyRow = Selectable<ContactRepliesTable>;

/** A query with its asker and its thread's counts, as lists and the detail view read it. */
export interface ContactQueryListRow extends ContactQueryRow {
  user_name: string;
  user_email: string;
  user_locale: 'en' | 'cn';
  reply_count: number;
  last_reply_at: string | null;
  last_reply_role: 'user' | 'support' | null;
}

export interface ContactListFilter {
  userId?: string;
  status?: ContactStatus;
  category?: ContactCategory;
  search?: string;
  limit: number;
  offset: number;
}

type QueryScope = ExpressionBuilder<Database & { q: ContactQueriesTable; u: Database['users'] }, 'q' | 'u'>;

/** Contact queries and their replies (migration 013). */
export class ContactRepository {
  constructor(private readonly db: Db) {}

  async insertQuery(row: ContactQueryRow): Promise<void> {
    await this.db.insertInto('contact_queries').values(row).execute();
  }

  async insertReply(row: ContactReplyRow): Promise<void> {
    await this.db.insertInto('contact_replies').values(row).execute();
  }

  async setStatus(id: string, status: ContactStatus, updatedAt: string): Promise<void> {
    await this.db.updateTable('contact_queries').set({ status, updated_at: updatedAt }).where('id', '=', id).execute();
  }

  findById(id: string): Promise<ContactQueryListRow | undefined> {
    return this.withThreadFacts().where('q.id', '=', id).executeTakeFirst();
  }

  replies(queryId: string): Promise<ContactReplyRow[]> {
    return this.db.selectFrom('contact_replies').selectAll().where('query_id', '=', queryId).orderBy('created_at').orderBy('id').execute();
  }

  /** One page, the most recently changed first; `userId` narrows to one asker (a user's own list). */
  async list(filter: ContactListFilter): Promise<{ rows: ContactQueryListRow[]; total: number }> {
    let rows = this.withThreadFacts();
    let count = this.db
      .selectFrom('contact_queries as q')
      .innerJoin('users as u', 'u.id', 'q.user_id')
      .select((eb) => eb.fn.countAll<number>().as('n'));
    if (filter.userId) {
      rows = rows.where('q.user_id', '=', filter.userId);
      count = count.where('q.user_id', '=', filter.userId);
    }
    if (filter.status) {
      rows = rows.where('q.status', '=', filter.status);
      count = count.where('q.status', '=', filter.status);
    }
    if (filter.category) {
      rows = rows.where('q.category', '=', filter.category);
      count = count.where('q.category', '=', filter.category);
    }
    const search = filter.search?.trim();
    if (search) {
      const anyField = (eb: QueryScope) => eb.or([containsText('q.subject', search), containsText('q.message', search), containsText('u.email', search)]);
      rows = rows.where(anyField);
      count = count.where(anyField);
    }
    const [page, counted] = await Promise.all([
      rows.orderBy('q.updated_at', 'desc').orderBy('q.id').limit(filter.limit).offset(filter.offset).execute(),
      count.executeTakeFirstOrThrow(),
    ]);
    return { rows: page, total: Number(counted.n) };
  }

  /** The query joined with its asker, plus how many replies it has and who wrote the last one. */
  private withThreadFacts() {
    return this.db
      .selectFrom('contact_queries as q')
      .innerJoin('users as u', 'u.id', 'q.user_id')
      .selectAll('q')
      .select(['u.name as user_name', 'u.email as user_email', 'u.locale as user_locale'])
      .select((eb) => [
        eb
          .selectFrom('contact_replies as r')
          .whereRef('r.query_id', '=', 'q.id')
          .select((e) => e.fn.countAll<number>().as('n'))
          .as('reply_count'),
        eb
          .selectFrom('contact_replies as r')
          .whereRef('r.query_id', '=', 'q.id')
          .select((e) => e.fn.max('r.created_at').as('at'))
          .as('last_reply_at'),
        eb
          .selectFrom('contact_replies as r')
          .whereRef('r.query_id', '=', 'q.id')
          .select('r.author_role')
          .orderBy('r.created_at', 'desc')
          .orderBy('r.id', 'desc')
          .limit(1)
          .as('last_reply_role'),
      ])
      .$castTo<ContactQueryListRow>();
  }
}
