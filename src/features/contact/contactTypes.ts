import type { Static } from '@sinclair/typebox';
import type {
  ContactAdminPage,
  ContactCategory as ContactCategorySchema,
  ContactQueryAdminSummary,
  ContactQueryOut,
  ContactQueryPage as ContactQueryPageSchema,
  ContactQuerySummary,
  ContactReplyIn,
  ContactReplyOut,
  ContactStatus as ContactStatusSchema,
  ContactStatusIn,
  ContactSubmitIn,
  ContactSubmitOut as ContactSubmitOutSchema,
  ContactUser as ContactUserSchema,
  ReplyRole,
} from '../../../server/src/modules/contact/contact.schemas';

// The Contact area's shapes, from the server's own schemas (issue 11's contract, "Contact").

export type ContactCategory = Static<typeof ContactCategorySchema>;
export const CONTACT_CATEGORIES: readonly ContactCategory[] = ['general', 'billing', 'technical', 'feature', 'account'];

export type ContactStatus = Static<typeof ContactStatusSchema>;
export const CONTACT_STATUSES: readonly ContactStatus[] = ['open', 'answered', 'closed'];

export type ReplyAuthorRole = Static<typeof ReplyRole>;
export type ContactUser = Static<typeof ContactUserSchema>;
export type { ContactQuerySummary, ContactQueryOut, ContactReplyIn, ContactStatusIn, ContactSubmitIn };
/** A row of the support queue: whose query it is, too. */
export type StaffQuerySummary = ContactQueryAdminSummary;
export type ContactReply = Static<typeof ContactReplyOut>;

/**
 * A query as the screens hold it: the query's own words are `text`. A success body's top-level
 * `message` is a notice the notices middleware shows as a toast (spec §7), so a query left with
 * its text there would pop up every time it is opened or answered.
 */
export interface ContactQuery extends Omit<ContactQueryOut, 'message'> {
  text: string;
}

/** The new query, and the server's confirmation (`message`), shown as a notice. */
export type ContactSubmitOut = Static<typeof ContactSubmitOutSchema>;

export type ContactQueryPage = Static<typeof ContactQueryPageSchema>;
export type StaffQueryPage = Static<typeof ContactAdminPage>;

/** The server's input limits (contact.schemas), so the form stops where the server would refuse. */
export const SUBJECT_MAX = 200;
export const MESSAGE_MAX = 5000;
