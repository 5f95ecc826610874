import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestampType } from './column-types';

// Workflows with their steps and variables, and the append-only history of every edit.
// JSON values (tags, param inputs, step inputs, snapshots) are text on both databases: they are
// read and written whole, never queried inside.
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestampType(dialect);
  const real = dialect === 'postgres' ? 'double precision' : 'real';

  await db.schema
    .createTable('workflows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('undo_stack', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('redo_stack', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('private'))
    // What the gallery shows: a copy taken when publishing, so later edits stay private.
    .addColumn('published_snapshot', 'text')
    .addColumn('published_name', 'text')
    .addColumn('published_description', 'text')
    .addColumn('published_tags', 'text')
    .addColumn('published_at', ts)
    .addColumn('cloned_from_id', 'text')
    .addColumn('clone_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('workflows_owner_updated').on('workflows').columns(['owner_id', 'updated_at']).execute();
  await db.schema.createIndex('workflows_visibility_published').on('workflows').columns(['visibility', 'published_at']).execute();

  await db.schema
    .createTable('workflow_steps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workflow_id', 'text', (c) => c.notNull().references('workflows.id').onDelete('cascade'))
    .addColumn('step_type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('param_inputs', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('inputs', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('position_x', real, (c) => c.notNull().defaultTo(0))
    .addColumn('position_y', real, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('workflow_steps_workflow').on('workflow_steps').column('workflow_id').execute();

  await db.schema
    .createTable('workflow_variables')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workflow_id', 'text', (c) => c.notNull().references('workflows.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    // JSON of the default value; for a secret, the sealed (encrypted) text.
    .addColumn('value', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('workflow_variables_name', ['workflow_id', 'name'])
    .execute();

  await db.schema
    .createTable('workflow_commits')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workflow_id', 'text', (c) => c.notNull().references('workflows.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('author_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('changes', 'text', (c) => c.notNull())
    // The whole workflow after this commit; the state before it is the previous commit's.
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addUniqueConstraint('workflow_commits_seq', ['workflow_id', 'seq'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['workflow_commits', 'workflow_variables', 'workflow_steps', 'workflows']) {
    await db.schema.dropTable(table).execute();
  }
}
