import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { deltaBetween, forHistory } from '../../modules/workflows/workflow-delta';
import { HISTORY } from '../../modules/workflows/workflow-editor';
import type { WorkflowSnapshot } from '../../modules/workflows/workflow-state';

/**
 * History that stays small. Until now every commit held the whole workflow (secret ciphertext
 * included) and the workflow row held ever-growing undo/redo stacks as JSON, rewritten on every
 * edit. Now a commit holds either a checkpoint (the whole state, every HISTORY.checkpointEvery
 * commits) or a delta, secrets never enter it, and the stacks are rows of their own, bounded.
 *
 * Existing histories are converted commit by commit: the old snapshots are exact, so the delta
 * between two consecutive ones is too. There is no way down: the values of secrets are gone from
 * the history on purpose. SQLite keeps the freed pages for new rows (VACUUM shrinks the file);
 * PostgreSQL reuses the space after (auto)vacuum, and `VACUUM FULL workflows, workflow_commits`
 * gives it back to the system.
 */
export async function up(database: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const db = database as Kysely<Tables>;
  // Kysely runs a PostgreSQL migration inside a transaction, a SQLite one not: take one there too,
  // so a failure leaves the old shape whole.
  if (dialect === 'sqlite') await db.transaction().execute((trx) => convert(trx));
  else await convert(db);
}

/** The tables as this migration sees them: 004's columns it reads, and what it adds. */
interface Tables {
  workflows: { id: string; undo_stack: string; redo_stack: string };
  workflow_commits: { id: string; workflow_id: string; seq: number; snapshot: string; checkpoint: string | null; delta: string | null; depth: number };
  workflow_undo_entries: { commit_id: string; workflow_id: string; stack: string; position: number };
}

const PAGE = 50;

async function convert(db: Kysely<Tables>): Promise<void> {
  await db.schema.alterTable('workflow_commits').addColumn('checkpoint', 'text').execute();
  await db.schema.alterTable('workflow_commits').addColumn('delta', 'text').execute();
  await db.schema
    .alterTable('workflow_commits')
    .addColumn('depth', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('workflow_undo_entries')
    .addColumn('commit_id', 'text', (c) => c.primaryKey().references('workflow_commits.id').onDelete('cascade'))
    .addColumn('workflow_id', 'text', (c) => c.notNull().references('workflows.id').onDelete('cascade'))
    .addColumn('stack', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('workflow_undo_entries_top').on('workflow_undo_entries').columns(['workflow_id', 'stack', 'position']).execute();

  // One workflow at a time: a never-trimmed stack alone can be hundreds of kilobytes.
  const workflows: { id: string }[] = await db.selectFrom('workflows').select('id').orderBy('id').execute();
  for (const { id } of workflows) {
    await convertCommits(db, id);
    await moveStacks(db, id);
  }

  await db.schema.alterTable('workflow_commits').dropColumn('snapshot').execute();
  await db.schema.alterTable('workflows').dropColumn('undo_stack').execute();
  await db.schema.alterTable('workflows').dropColumn('redo_stack').execute();
}

/** Keeps a checkpoint every HISTORY.checkpointEvery commits (the first included) and a delta between. */
async function convertCommits(db: Kysely<Tables>, workflowId: string): Promise<void> {
  let previous: WorkflowSnapshot | null = null;
  let index = 0;
  let lastSeq = 0;
  for (;;) {
    const page: { id: string; seq: number; snapshot: string }[] = await db
      .selectFrom('workflow_commits')
      .select(['id', 'seq', 'snapshot'])
      .where('workflow_id', '=', workflowId)
      .where('seq', '>', lastSeq)
      .orderBy('seq')
      .limit(PAGE)
      .execute();
    for (const commit of page) {
      const state = forHistory(JSON.parse(commit.snapshot) as WorkflowSnapshot);
      const depth = index % HISTORY.checkpointEvery;
      await db
        .updateTable('workflow_commits')
        .set({
          checkpoint: depth === 0 ? JSON.stringify(state) : null,
          delta: depth === 0 ? null : JSON.stringify(deltaBetween(previous!, state)),
          depth,
        })
        .where('id', '=', commit.id)
        .execute();
      previous = state;
      index++;
      lastSeq = commit.seq;
    }
    if (page.length < PAGE) return;
  }
}

/** The JSON stacks become rows, in the same order, keeping the newest HISTORY.undoLimit of each. */
async function moveStacks(db: Kysely<Tables>, workflowId: string): Promise<void> {
  const stacks: { undo_stack: string; redo_stack: string } = await db
    .selectFrom('workflows')
    .select(['undo_stack', 'redo_stack'])
    .where('id', '=', workflowId)
    .executeTakeFirstOrThrow();
  const placed = new Set<string>();
  for (const [stack, text] of [
    ['undo', stacks.undo_stack],
    ['redo', stacks.redo_stack],
  ] as const) {
    const ids = (JSON.parse(text) as string[]).slice(-HISTORY.undoLimit);
    if (!ids.length) continue;
    // An id whose commit is gone was already ignored by undo/redo; it cannot become a row.
    const known = new Set(
      (await db.selectFrom('workflow_commits').select('id').where('workflow_id', '=', workflowId).where('id', 'in', ids).execute()).map(
        (r: { id: string }) => r.id,
      ),
    );
    const rows = [];
    for (const id of ids) {
      if (!known.has(id) || placed.has(id)) continue;
      placed.add(id);
      rows.push({ commit_id: id, workflow_id: workflowId, stack, position: rows.length + 1 });
    }
    if (rows.length) await db.insertInto('workflow_undo_entries').values(rows).execute();
  }
}
