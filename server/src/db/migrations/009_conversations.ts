import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestampType } from './column-types';

/**
 * Conversations with the agents (issue 7/8) and their messages.
 *
 *   users ─< conversations ─< conversation_messages
 *             └── workflow_id ─► workflows (a coordinator's or a step agent's chat goes with its workflow)
 *
 * `agent` is general | coordinator | step_param | step_param_evaluation; a message's `status` is
 * complete | partial | error (text, checked by the code that writes them, as elsewhere). `parts`,
 * `commit_card` and `usage` are JSON text, read and written whole. The list is newest first by
 * `updated_at` (the last message), per owner, optionally per workflow.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestampType(dialect);

  await db.schema
    .createTable('conversations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('agent', 'text', (c) => c.notNull().defaultTo('general'))
    .addColumn('workflow_id', 'text', (c) => c.references('workflows.id').onDelete('cascade'))
    // No foreign key: the step may be deleted later; the chat stays readable.
    .addColumn('step_id', 'text')
    .addColumn('message_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('conversations_user_updated').on('conversations').columns(['user_id', 'updated_at', 'id']).execute();
  await db.schema.createIndex('conversations_workflow_updated').on('conversations').columns(['workflow_id', 'updated_at']).execute();

  await db.schema
    .createTable('conversation_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    // Order within a conversation (timestamps can tie).
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('parts', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('complete'))
    .addColumn('commit_card', 'text')
    .addColumn('usage', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addUniqueConstraint('conversation_messages_seq', ['conversation_id', 'seq'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('conversation_messages').execute();
  await db.schema.dropTable('conversations').execute();
}
