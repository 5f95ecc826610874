import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { loadConfig } from '../../config/config';
import { SecretBox } from '../../lib/secret-box';
import { hashPassword } from '../../modules/auth/passwords';
import { HISTORY } from '../../modules/workflows/workflow-editor';
import { diffSnapshots, type WorkflowSnapshot } from '../../modules/workflows/workflow-state';
import { createTestDatabase, logIn } from '../../test/test-app';
import { workflowClient } from '../../test/workflow-helpers';
import { openDatabase } from '../database';
import { migratorFor } from '../migrate';

/**
 * A database as version 004 left it: every commit with its whole snapshot (secret ciphertext
 * included), the undo/redo stacks as never-trimmed JSON on the workflow row. Migrating it to the
 * latest version must keep every commit's state, undo, redo and restore working.
 */
describe('migration 005: history as checkpoints and deltas', () => {
  const secretsKey = randomBytes(32);
  const box = new SecretBox(secretsKey);
  const sealedOld = box.seal('sk-old');
  const sealedNow = box.seal('sk-current');
  const descriptions = HISTORY.undoLimit + 50;

  let app: FastifyInstance;
  let api: ReturnType<typeof workflowClient>;
  let cleanUp: () => Promise<void>;
  const workflowId = randomUUID();
  const snapshots = new Map<string, WorkflowSnapshot>();
  const commitIds: string[] = [];

  // Over Jest’s 5 s at worst: writes 150 commits as the old code did, then migrates them (1–3 s on a loaded 2-core machine).
  beforeAll(async () => {
    // Not migrated: this test migrates it to 004 itself and writes what the old code wrote.
    const database = await createTestDatabase({ migrated: false });
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      DATA_DIR: database.dataDir,
      WEB_DIR: path.join(database.dataDir, 'no-web-app'),
      IN_PROCESS_WORKER: 'false',
      SECRETS_KEY: secretsKey.toString('base64'),
      ...database.env,
    });

    const old = openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: path.join(database.dataDir, 'stepwise.db') });
    const { error } = await (await migratorFor(old.db, old.dialect)).migrateTo('004_step_infos');
    if (error) throw error;
    await writeOldHistory(old.db as unknown as Kysely<OldTables>);
    await old.close();

    app = await buildApp({ config, redisNamespace: `test-${randomBytes(6).toString('hex')}`, logger: false });
    const login = await logIn(app, 'legacy@example.com', 'legacy password 1');
    api = workflowClient(app, { authorization: `Bearer ${login.json().access_token}` });
    cleanUp = async () => {
      await app.close();
      await database.drop();
    };
  }, 30_000);
  afterAll(() => cleanUp?.());

  /** Tables as migration 004 left them: this test writes rows the current schema no longer has. */
  type OldTables = Record<string, Record<string, unknown>>;

  /** The history the old code wrote: create, add a step, add a secret, change it, then many descriptions, then one undo. */
  async function writeOldHistory(db: Kysely<OldTables>) {
    const now = new Date().toISOString();
    const userId = randomUUID();
    await db
      .insertInto('users')
      .values({
        id: userId,
        email: 'legacy@example.com',
        name: 'Legacy',
        password_hash: await hashPassword('legacy password 1'),
        created_at: now,
        updated_at: now,
      })
      .execute();

    let state: WorkflowSnapshot = { name: 'Legacy', description: '', tags: ['old'], steps: [], variables: [] };
    const commits: object[] = [];
    const commit = (kind: string, message: object, next: WorkflowSnapshot) => {
      const id = randomUUID();
      commits.push({
        id,
        workflow_id: workflowId,
        seq: commits.length + 1,
        author_id: userId,
        kind,
        message: JSON.stringify(message),
        changes: JSON.stringify(commits.length ? diffSnapshots(state, next, workflowId) : [{ entity: 'workflow', id: workflowId, op: 'create' }]),
        snapshot: JSON.stringify(next),
        created_at: now,
      });
      commitIds.push(id);
      snapshots.set(id, next);
      state = next;
    };
    commit('create', { key: 'server.history.msg.created' }, state);
    const step = { id: randomUUID(), step_type: 'import_csv', name: 'Import', param_inputs: { delimiter: ',' }, inputs: [], position: { x: 0, y: 0 } };
    commit('edit', { key: 'server.history.msg.stepAdded', values: { name: 'Import' } }, { ...state, steps: [step] });
    const secret = { id: randomUUID(), name: 'api_key', type: 'secret' as const, description: '', value: sealedOld };
    commit('edit', { key: 'server.history.msg.variableAdded', values: { name: 'api_key' } }, { ...state, variables: [secret] });
    commit('edit', { key: 'server.history.msg.variableUpdated', values: { name: 'api_key' } }, { ...state, variables: [{ ...secret, value: sealedNow }] });
    for (let i = 1; i <= descriptions; i++) {
      commit('edit', { key: 'server.history.msg.workflowUpdated', values: { fields: 'description' } }, { ...state, description: `d${i}` });
    }
    const undone = commits.length;
    const undoneState = snapshots.get(commitIds[undone - 2])!;
    commit('undo', { key: 'server.history.msg.undo', of: JSON.parse((commits[undone - 1] as { message: string }).message) }, undoneState);

    await db
      .insertInto('workflows')
      .values({
        id: workflowId,
        owner_id: userId,
        name: state.name,
        description: state.description,
        tags: JSON.stringify(state.tags),
        version: commits.length,
        // Every edit since the start, never trimmed, as the old code kept them.
        undo_stack: JSON.stringify(commitIds.slice(1, undone - 1)),
        redo_stack: JSON.stringify([commitIds[undone - 1]]),
        created_at: now,
        updated_at: now,
      })
      .execute();
    const { position: _p, ...stepColumns } = step;
    await db
      .insertInto('workflow_steps')
      .values({
        ...stepColumns,
        workflow_id: workflowId,
        param_inputs: JSON.stringify(step.param_inputs),
        inputs: '[]',
        position_x: 0,
        position_y: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto('workflow_variables')
      .values({ ...secret, value: sealedNow, workflow_id: workflowId, created_at: now, updated_at: now })
      .execute();
    for (let i = 0; i < commits.length; i += 50)
      await db
        .insertInto('workflow_commits')
        .values(commits.slice(i, i + 50))
        .execute();
  }

  const expected = (snapshot: WorkflowSnapshot) => ({
    name: snapshot.name,
    description: snapshot.description,
    tags: snapshot.tags,
    steps: snapshot.steps.map((s) => ({ ...s, workflow_id: workflowId })),
    variables: snapshot.variables.map((v) => ({
      id: v.id,
      workflow_id: workflowId,
      name: v.name,
      type: v.type,
      description: v.description,
      value: null,
      has_value: v.value !== null,
    })),
  });

  it('keeps the state of every commit, without any secret text, and drops the old columns', async () => {
    for (const id of commitIds) {
      const detail = await api.ok('GET', `/workflow-history/commits/${id}`);
      expect(detail.state).toEqual(expected(snapshots.get(id)!));
    }
    const { total, items } = await api.ok('POST', '/workflow-history/commits', { workflow_id: workflowId, page_size: 2 });
    expect(total).toBe(commitIds.length);
    expect(items.map((c: { message: string }) => c.message)).toEqual(['Undid: Changed description', 'Changed description']);

    const rows = await app.db.selectFrom('workflow_commits').selectAll().where('workflow_id', '=', workflowId).orderBy('seq').execute();
    expect(rows.filter((r) => r.checkpoint !== null).map((r) => r.seq)).toEqual([1, HISTORY.checkpointEvery + 1]);
    expect(Object.keys(rows[0])).not.toContain('snapshot');
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(sealedOld);
    expect(stored).not.toContain(sealedNow);
    const workflow = await app.db.selectFrom('workflows').selectAll().where('id', '=', workflowId).executeTakeFirstOrThrow();
    expect(Object.keys(workflow)).not.toContain('undo_stack');
  });

  // Over Jest’s 5 s at worst: undoes the whole bound, one API call each (0.6–1.3 s on a loaded 2-core machine).
  it('keeps the stacks (trimmed to the bound): redo, then undo exactly as far as the bound allows', async () => {
    expect(await api.getWorkflow(workflowId)).toMatchObject({ description: `d${descriptions - 1}`, can_undo: true, can_redo: true });
    const redone = await api.call('POST', '/workflow-history/redo', { workflow_id: workflowId });
    expect(redone.body).toMatchObject({ message: 'Redid: Changed description', description: `d${descriptions}`, can_redo: false });
    expect((await api.call('POST', '/workflow-history/redo', { workflow_id: workflowId })).status).toBe(409);

    for (let i = 0; i < HISTORY.undoLimit; i++) expect((await api.call('POST', '/workflow-history/undo', { workflow_id: workflowId })).status).toBe(200);
    expect((await api.call('POST', '/workflow-history/undo', { workflow_id: workflowId })).status).toBe(409);
    expect((await api.getWorkflow(workflowId)).description).toBe(`d${descriptions - HISTORY.undoLimit}`);
  }, 20_000);

  it('restores a commit from before the migration, keeping the secret value the variable has now', async () => {
    const addedSecret = commitIds[2];
    const restored = await api.call('POST', `/workflow-history/restore/${addedSecret}`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ message: 'Restored #3 (Added variable api_key)', description: '' });
    expect(restored.body).not.toHaveProperty('warnings');
    const variable = await app.db.selectFrom('workflow_variables').select('value').where('workflow_id', '=', workflowId).executeTakeFirstOrThrow();
    expect(box.open(variable.value!)).toBe('sk-current');
  });
});
