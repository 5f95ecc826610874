import type { Db } from '../../db/database';
import type { AgentKind, ConversationMessagesTable, ConversationsTable, MessageStatus } from '../../db/schema';

export type ConversationRow = ConversationsTable;
export type MessageRow = ConversationMessagesTable;

export interface ConversationFilter {
  workflowId?: string;
  agent?: AgentKind;
}

/** The conversations and messages tables; every read of a conversation names its owner. */
export class ConversationsRepository {
  constructor(private readonly db: Db) {}

  async list(userId: string, filter: ConversationFilter, limit: number, offset: number): Promise<{ rows: ConversationRow[]; total: number }> {
    let base = this.db.selectFrom('conversations').where('user_id', '=', userId);
    if (filter.workflowId) base = base.where('workflow_id', '=', filter.workflowId);
    if (filter.agent) base = base.where('agent', '=', filter.agent);
    const [rows, count] = await Promise.all([
      base.selectAll().orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  findOwned(id: string, userId: string): Promise<ConversationRow | undefined> {
    return this.db.selectFrom('conversations').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  }

  async insert(row: ConversationRow): Promise<void> {
    await this.db.insertInto('conversations').values(row).execute();
  }

  messages(conversationId: string): Promise<MessageRow[]> {
    return this.db.selectFrom('conversation_messages').selectAll().where('conversation_id', '=', conversationId).orderBy('seq').execute();
  }

  /** Appends a message at the next number and touches the conversation (count, time, a first title). */
  async appendMessage(row: Omit<MessageRow, 'seq'>, title?: string): Promise<MessageRow> {
    return this.db.transaction().execute(async (trx) => {
      const last = await trx
        .selectFrom('conversation_messages')
        .select((eb) => eb.fn.max<number>('seq').as('seq'))
        .where('conversation_id', '=', row.conversation_id)
        .executeTakeFirst();
      const stored: MessageRow = { ...row, seq: Number(last?.seq ?? 0) + 1 };
      await trx.insertInto('conversation_messages').values(stored).execute();
      await trx
        .updateTable('conversations')
        .set((eb) => ({ message_count: eb('message_count', '+', 1), updated_at: row.created_at }))
        .where('id', '=', row.conversation_id)
        .execute();
      if (title) await trx.updateTable('conversations').set({ title }).where('id', '=', row.conversation_id).where('title', '=', '').execute();
      return stored;
    });
  }

  async updateMessage(
    id: string,
    fields: { content: string; parts: string; status: MessageStatus; commit_card: string | null; usage: string | null },
  ): Promise<void> {
    await this.db.updateTable('conversation_messages').set(fields).where('id', '=', id).execute();
  }

  /** Swaps a message's card only if it still is `expected`; false when someone changed it first. */
  async replaceCommitCard(id: string, expected: string, card: string): Promise<boolean> {
    const result = await this.db
      .updateTable('conversation_messages')
      .set({ commit_card: card })
      .where('id', '=', id)
      .where('commit_card', '=', expected)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  findMessage(id: string): Promise<MessageRow | undefined> {
    return this.db.selectFrom('conversation_messages').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
