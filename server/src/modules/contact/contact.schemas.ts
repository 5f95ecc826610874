import { Type, type Static } from '@sinclair/typebox';
import { Id, Notices, Page, pageFields, StringEnum } from '../../http/common.schemas';

export const ContactCategory = StringEnum(['general', 'billing', 'technical', 'feature', 'account']);
export const ContactStatus = StringEnum(['open', 'answered', 'closed']);
/** Who wrote a message, as the reader sees it: the asker, or support (support staff and admins alike). */
export const ReplyRole = StringEnum(['user', 'support']);

const Subject = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const MessageText = Type.String({ minLength: 1, maxLength: 5000, pattern: '\\S' });

export const ContactSubmitIn = Type.Object({ subject: Subject, message: MessageText, category: ContactCategory }, { additionalProperties: false });
export type ContactSubmitIn = Static<typeof ContactSubmitIn>;

export const ContactReplyIn = Type.Object({ message: MessageText }, { additionalProperties: false });
export type ContactReplyIn = Static<typeof ContactReplyIn>;

export const ContactStatusIn = Type.Object({ status: ContactStatus }, { additionalProperties: false });
export type ContactStatusIn = Static<typeof ContactStatusIn>;

export const ContactUser = Type.Object({ id: Type.String(), name: Type.String(), email: Type.String() });

const summaryFields = {
  id: Type.String(),
  subject: Type.String(),
  category: ContactCategory,
  status: ContactStatus,
  created_at: Type.String(),
  updated_at: Type.String(),
  reply_count: Type.Integer(),
  last_reply_at: Type.Union([Type.String(), Type.Null()]),
  last_reply_role: Type.Union([ReplyRole, Type.Null()]),
};

export const ContactQuerySummary = Type.Object(summaryFields);
export type ContactQuerySummary = Static<typeof ContactQuerySummary>;

export const ContactQueryAdminSummary = Type.Object({ ...summaryFields, user: ContactUser });
export type ContactQueryAdminSummary = Static<typeof ContactQueryAdminSummary>;

export const ContactReplyOut = Type.Object({
  id: Type.String(),
  author_role: ReplyRole,
  author_name: Type.String(),
  message: Type.String(),
  created_at: Type.String(),
});

export const ContactQueryOut = Type.Object({ ...summaryFields, message: Type.String(), user: ContactUser, replies: Type.Array(ContactReplyOut) });
export type ContactQueryOut = Static<typeof ContactQueryOut>;

export const ContactSubmitOut = Type.Object({ query: ContactQueryOut, ...Notices });

export const MyQueriesQuery = Type.Object({ ...pageFields({ size: 20, maxSize: 100 }), status: Type.Optional(ContactStatus) }, { additionalProperties: false });
export type MyQueriesQuery = Static<typeof MyQueriesQuery>;

export const AdminQueriesQuery = Type.Object(
  {
    ...pageFields({ size: 20, maxSize: 100 }),
    status: Type.Optional(ContactStatus),
    category: Type.Optional(ContactCategory),
    /** Case-insensitive, in the subject, the message and the asker's email. */
    search: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type AdminQueriesQuery = Static<typeof AdminQueriesQuery>;

export const ContactIdParams = Type.Object({ id: Id });
export const ContactQueryPage = Page(ContactQuerySummary);
export const ContactAdminPage = Page(ContactQueryAdminSummary);
