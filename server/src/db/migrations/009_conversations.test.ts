import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { createTestApp, type TestApp } from '../../test/test-app';
import type { Db } from '../database';

/**
 * What the conversation tables promise, on the real database (SQLite here, PostgreSQL in
 * server-postgres): the defaults a new conversation and message start with, one message per number
 * in a conversation, and deletion cascading from the user, the workflow and the conversation.
 */
describe('migration 009: conversations and their messages', () => {
  let t: TestApp;
  let db: Db;
  const now = new Date().toISOString();
  const loose = () => db as unknown as Kysely<Record<string, Record<string, unknown>>>;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.db;
  });
  afterAll(() => t.close());

  async function conversationWithMessage() {
    const userId = randomUUID();
    await db
      .insertInto('users')
      .values({
        id: userId,
        email: `${userId}@example.com`,
        name: 'Ada',
        password_hash: 'x',
        role: 'user',
        locale: 'en',
        theme: 'system',
        created_at: now,
        updated_at: now,
      })
      .execute();
    const workflowId = randomUUID();
    await loose().insertInto('workflows').values({ id: workflowId, owner_id: userId, name: 'W', created_at: now, updated_at: now }).execute();
    const conversationId = randomUUID();
    await loose()
      .insertInto('conversations')
      .values({ id: conversationId, user_id: userId, workflow_id: workflowId, created_at: now, updated_at: now })
      .execute();
    const messageId = randomUUID();
    await loose()
      .insertInto('conversation_messages')
      .values({ id: messageId, conversation_id: conversationId, seq: 1, role: 'user', created_at: now })
      .execute();
    return { userId, workflowId, conversationId, messageId };
  }

  const outcome = (insert: Promise<unknown>) =>
    insert.then(
      () => 'accepted',
      (err: unknown) => String((err as { message?: unknown } | null)?.message ?? err),
    );

  it('fills in the defaults', async () => {
    const { conversationId, messageId } = await conversationWithMessage();
    expect(await db.selectFrom('conversations').selectAll().where('id', '=', conversationId).executeTakeFirstOrThrow()).toMatchObject({
      title: '',
      agent: 'general',
      step_id: null,
      message_count: 0,
    });
    expect(await db.selectFrom('conversation_messages').selectAll().where('id', '=', messageId).executeTakeFirstOrThrow()).toMatchObject({
      content: '',
      parts: '[]',
      status: 'complete',
      commit_card: null,
      usage: null,
    });
  });

  it('refuses a second message with the same number in a conversation', async () => {
    const { conversationId } = await conversationWithMessage();
    expect(
      await outcome(
        loose()
          .insertInto('conversation_messages')
          .values({ id: randomUUID(), conversation_id: conversationId, seq: 1, role: 'assistant', created_at: now })
          .execute(),
      ),
    ).toMatch(/unique|duplicate/i);
    await loose()
      .insertInto('conversation_messages')
      .values({ id: randomUUID(), conversation_id: conversationId, seq: 2, role: 'assistant', created_at: now })
      .execute();
  });

  it('deleting the workflow deletes its conversations and their messages; deleting the user the rest', async () => {
    const { workflowId, conversationId, userId } = await conversationWithMessage();
    const loneId = randomUUID();
    await loose().insertInto('conversations').values({ id: loneId, user_id: userId, created_at: now, updated_at: now }).execute();
    await db.deleteFrom('workflows').where('id', '=', workflowId).execute();
    expect(await db.selectFrom('conversations').select('id').where('id', '=', conversationId).execute()).toEqual([]);
    expect(await db.selectFrom('conversation_messages').select('id').where('conversation_id', '=', conversationId).execute()).toEqual([]);
    expect(await db.selectFrom('conversations').select('id').where('id', '=', loneId).execute()).toEqual([{ id: loneId }]);
    await db.deleteFrom('users').where('id', '=', userId).execute();
    expect(await db.selectFrom('conversations').select('id').where('user_id', '=', userId).execute()).toEqual([]);
  });
});
