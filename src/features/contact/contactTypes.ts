import type { PageOf } from '../../../server/src/http/common.schemas';

// The Contact area's shapes (issue 11's contract, "Contact"). They mirror the server's
// contact schemas; once those are on main these become `Static<typeof …>` of them.

export const CONTACT_CATEGORIES = ['general', 'billing', 'technical', 'feature', 'account'] as const;
export type ContactCategory = (typeof CONTACT_CATEGORIES)[number];

export const CONTACT_STATUSES = ['open', 'answered', 'closed'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

export type ReplyAuthorRole = 'user' | 'support';

export interface ContactUser {
  id: string;
  name: string;
  email: string;
}

export interface ContactQuerySummary {
  id: string;
  subject: string;
  category: ContactCategory;
  status: ContactStatus;
  created_at: string;
  updated_at: string;
  reply_count: number;
  last_reply_at: string | null;
  last_reply_role: ReplyAuthorRole | null;
}

/** A row of the support queue: whose query it is, too. */
export interface StaffQuerySummary extends ContactQuerySummary {
  user: ContactUser;
}

export interface ContactReply {
  id: string;
  author_role: ReplyAuthorRole;
  author_name: string;
  message: string;
  created_at: string;
}

/** One query with its conversation, oldest reply first, as the server sends it. */
export interface ContactQueryOut extends ContactQuerySummary {
  message: string;
  user: ContactUser;
  replies: ContactReply[];
}

/**
 * The same, as the screens hold it: the query's own words are `text`. A success body's top-level
 * `message` is a notice the notices middleware shows as a toast (spec §7), so a query left with
 * its text there would pop up every time it is opened or answered.
 */
export interface ContactQuery extends Omit<ContactQueryOut, 'message'> {
  text: string;
}

export interface ContactSubmitIn {
  subject: string;
  message: string;
  category: ContactCategory;
}

export interface ContactSubmitOut {
  query: ContactQueryOut;
  /** The server's confirmation, shown as a notice. */
  message: string;
}

export type ContactQueryPage = PageOf<ContactQuerySummary>;
export type StaffQueryPage = PageOf<StaffQuerySummary>;

/** The server's input limits, so the form stops where the server would refuse. */
export const SUBJECT_MAX = 200;
export const MESSAGE_MAX = 5000;
