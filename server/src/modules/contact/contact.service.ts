import { randomUUID } from 'node:crypto';
import type { Config } from '../../config/config';
import type { Db } from '../../db/database';
import { translate, type Language } from '../../i18n/messages';
import { notFound } from '../../lib/errors';
import type { Log } from '../../lib/logger';
import type { Mailer } from '../../mail/mailer';
import { escapeHtml, languageOfLocale, localePath } from '../../mail/email-text';
import { isStaff, requireRole, STAFF } from '../users/roles';
import type { Role } from '../users/users.schemas';
import { ContactRepository, type ContactQueryListRow, type ContactReplyRow } from './contact.repository';
import type { AdminQueriesQuery, ContactQueryOut, ContactQuerySummary, ContactStatusIn, ContactSubmitIn, MyQueriesQuery } from './contact.schemas';

/** Who is asking: the signed-in user as the token check loaded them. */
export interface ContactViewer {
  id: string;
  name: string;
  role: Role;
}

const toSummary = (row: ContactQueryListRow): ContactQuerySummary => ({
  id: row.id,
  subject: row.subject,
  category: row.category,
  status: row.status,
  created_at: row.created_at,
  updated_at: row.updated_at,
  reply_count: Number(row.reply_count ?? 0),
  last_reply_at: row.last_reply_at ?? null,
  last_reply_role: row.last_reply_role ?? null,
});

const userOf = (row: ContactQueryListRow) => ({ id: row.user_id, name: row.user_name, email: row.user_email });

/**
 * Contact queries: a user asks, support staff (and admins) answer. A query is seen by its asker and
 * by staff only; to anyone else it does not exist (404). A user's reply reopens the query, a staff
 * reply marks it answered and emails the asker, in their language, a link to the thread.
 */
export class ContactService {
  private readonly queries: ContactRepository;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly mailer: Mailer,
    private readonly log: Log,
  ) {
    this.queries = new ContactRepository(db);
  }

  async submit(viewer: ContactViewer, input: ContactSubmitIn): Promise<ContactQueryOut> {
    const now = new Date().toISOString();
    const id = randomUUID();
    await this.queries.insertQuery({
      id,
      user_id: viewer.id,
      subject: input.subject.trim(),
      message: input.message.trim(),
      category: input.category,
      status: 'open',
      created_at: now,
      updated_at: now,
    });
    return this.get(viewer, id);
  }

  async mine(viewer: ContactViewer, query: MyQueriesQuery) {
    const { rows, total } = await this.queries.list({ userId: viewer.id, status: query.status, ...window(query) });
    return { items: rows.map(toSummary), total, page: query.page, page_size: query.page_size };
  }

  async all(viewer: ContactViewer, query: AdminQueriesQuery) {
    requireRole(viewer, STAFF);
    const { rows, total } = await this.queries.list({ status: query.status, category: query.category, search: query.search, ...window(query) });
    return { items: rows.map((row) => ({ ...toSummary(row), user: userOf(row) })), total, page: query.page, page_size: query.page_size };
  }

  async get(viewer: ContactViewer, id: string): Promise<ContactQueryOut> {
    const row = await this.visible(viewer, id);
    return this.detail(row, await this.queries.replies(row.id));
  }

  /** The asker's reply reopens the query; a staff member's answers it and tells the asker by email. */
  async reply(viewer: ContactViewer, id: string, message: string): Promise<ContactQueryOut> {
    const row = await this.visible(viewer, id);
    const fromAsker = row.user_id === viewer.id;
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      const queries = new ContactRepository(trx);
      await queries.insertReply({
        id: randomUUID(),
        query_id: row.id,
        author_id: viewer.id,
        author_role: fromAsker ? 'user' : 'support',
        author_name: viewer.name,
        message: message.trim(),
        created_at: now,
      });
      await queries.setStatus(row.id, fromAsker ? 'open' : 'answered', now);
    });
    if (!fromAsker) await this.tellAsker(row);
    return this.get(viewer, id);
  }

  async setStatus(viewer: ContactViewer, id: string, input: ContactStatusIn): Promise<ContactQueryOut> {
    requireRole(viewer, STAFF);
    const row = await this.visible(viewer, id);
    await this.queries.setStatus(row.id, input.status, new Date().toISOString());
    return this.get(viewer, id);
  }

  private async visible(viewer: ContactViewer, id: string): Promise<ContactQueryListRow> {
    const row = await this.queries.findById(id);
    if (!row || (row.user_id !== viewer.id && !isStaff(viewer))) throw notFound();
    return row;
  }

  private detail(row: ContactQueryListRow, replies: ContactReplyRow[]): ContactQueryOut {
    return {
      ...toSummary(row),
      message: row.message,
      user: userOf(row),
      replies: replies.map((r) => ({ id: r.id, author_role: r.author_role, author_name: r.author_name, message: r.message, created_at: r.created_at })),
    };
  }

  /** The reply is stored whatever happens to the mail: a mail server being down is logged, not the staff member's problem. */
  private async tellAsker(row: ContactQueryListRow): Promise<void> {
    const language: Language = languageOfLocale(row.user_locale);
    const link = `${this.config.publicUrl}${localePath(row.user_locale)}/contact/${row.id}`;
    const values = { name: row.user_name, subject: row.subject, link };
    try {
      await this.mailer.send({
        to: row.user_email,
        subject: translate(language, 'server.contact.email.subject', { subject: row.subject }),
        text: translate(language, 'server.contact.email.text', values),
        html: translate(language, 'server.contact.email.html', { ...values, name: escapeHtml(row.user_name), subject: escapeHtml(row.subject) }),
      });
    } catch (err) {
      this.log.error({ err, queryId: row.id }, 'could not email the answer to a contact query');
    }
  }
}

const window = (query: { page: number; page_size: number }) => ({ limit: query.page_size, offset: (query.page - 1) * query.page_size });
