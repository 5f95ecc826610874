import { testUser } from '../../test/handlers';
import type { ContactQueryOut, ContactQuerySummary } from './contactTypes';

// Queries as the server answers them, for the contact and support screens' tests.

export const querySummary = (over: Partial<ContactQuerySummary> = {}): ContactQuerySummary => ({
  id: 'q-1',
  subject: 'Import fails on a large CSV',
  category: 'technical',
  status: 'open',
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  reply_count: 0,
  last_reply_at: null,
  last_reply_role: null,
  ...over,
});

export const fullQuery = (over: Partial<ContactQueryOut> = {}): ContactQueryOut => ({
  ...querySummary(),
  message: 'The import stops at row 10,000.\nThe file has 50,000 rows.',
  user: { id: testUser.id, name: testUser.name, email: testUser.email },
  replies: [],
  ...over,
});

export const pageOf = <T>(items: T[], total = items.length) => ({ items, total, page: 1, page_size: 20 });
