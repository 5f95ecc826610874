import type { Kysely } from 'kysely';
import type { Log } from '../../lib/logger';
import { cleanDatasets } from '../../jobs/dataset-retention';
import { OutputCounts } from '../../engine/run/output-counts';
import { startS3Server, type TestS3 } from '../../test/s3-server';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { workflowClient } from '../../test/workflow-helpers';

const quiet: Log = { debug() {}, info() {}, warn() {}, error() {} };

/*
 * Deferred snapshots through the API (docs/architecture.md, "Deferred snapshots"): a CSV import and
 * the SQL steps after it write nothing while the run goes; opening an output writes it once, with
 * the ids it would have had; the import reads its own copy of the file; housekeeping keeps what a
 * recipe reads.
 */
describe.each(['local', 's3'] as const)('deferred datasets (%s storage)', (backend) => {
  let t: TestApp;
  let defaultSmallOutputRows: number;
  let s3: TestS3 | null = null;
  let user: Awaited<ReturnType<typeof signedInUser>>;
  let wf: ReturnType<typeof workflowClient>;
  const csv = 'name,city,amount\nAda,London,12\n李雷,北京,\nBob,,30\n"O\'Brien, Jr",Dublin,5\nÄrger,München,40\n';

  const api = (method: string, url: string, payload?: object) => t.app.inject({ method: method as 'GET', url: `/api/v1${url}`, headers: user.auth, payload });
  const db = () => t.app.db as unknown as Kysely<Record<string, Record<string, unknown>>>;

  async function upload(name: string, text: string): Promise<string> {
    const payload = `--b\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n${text}\r\n--b--\r\n`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files/',
      headers: { ...user.auth, 'content-type': 'multipart/form-data; boundary=b' },
      payload,
    });
    expect(res.statusCode).toBe(201);
    return res.json().items[0].id;
  }

  const finished = async (runId: string) => {
    for (let i = 0; i < 1200; i++) {
      const run = (await api('GET', `/workflow-runs/${runId}`)).json();
      if (['succeeded', 'failed', 'cancelled'].includes(run.state)) return run;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('run did not finish');
  };

  /** Runs import → filter → add_column over a fresh upload of `csv`; answers the step runs. */
  async function runChain() {
    const fileId = await upload('people.csv', csv);
    const workflowId = (await wf.createWorkflow('Deferred')).id;
    const load = await wf.addStep(workflowId, 'import_csv', { param_inputs: { file: fileId } });
    const big = await wf.addStep(workflowId, 'filter', { inputs: [load.id], param_inputs: { condition: 'amount > 10 OR amount IS NULL' } });
    const label = await wf.addStep(workflowId, 'add_column', {
      inputs: [big.id],
      param_inputs: { new_column: 'label', expression: "coalesce(city, '?') || '/' || name" },
    });
    const started = (await api('POST', `/workflow-execution/${workflowId}/steps/${label.id}/execute?mode=all`, {})).json();
    const run = await finished(started.id);
    expect(run.state).toBe('succeeded');
    return { fileId, stepRuns: run.step_runs as { output_dataset_id: string; records_total: number | null }[] };
  }

  const rowOf = async (id: string) =>
    (await db().selectFrom('datasets').selectAll().where('id', '=', id).executeTakeFirst()) as { recipe: string | null; row_count: number } | undefined;
  const records = async (id: string) => (await api('GET', `/datasets/${id}/records?page_size=100`)).json();

  beforeAll(async () => {
    // Opening is what these tests are about: small outputs are not written when counted (tested below).
    defaultSmallOutputRows = OutputCounts.smallOutputRows;
    OutputCounts.smallOutputRows = 0;
    if (backend === 's3') s3 = await startS3Server();
    t = await createTestApp({ IN_PROCESS_WORKER: 'true', ...(s3?.env ?? {}) });
    user = await signedInUser(t.app);
    wf = workflowClient(t.app, user.auth);
  });
  afterAll(async () => {
    OutputCounts.smallOutputRows = defaultSmallOutputRows;
    await t.close();
    await s3?.close();
  });

  it('writes nothing while running; opening writes each output once, with the ids of the file order', async () => {
    const { stepRuns } = await runChain();
    const [imported, filtered, labelled] = stepRuns.map((s) => s.output_dataset_id);
    // Reading the ended run counted each output over its recipe (below: still nothing written).
    expect(stepRuns.map((s) => s.records_total)).toEqual([5, 4, 4]);
    for (const id of [imported, filtered, labelled]) {
      expect((await rowOf(id))?.recipe).toBeTruthy();
      expect(await t.app.storage.head(`datasets/${user.user.id}/${id}.parquet`)).toBeNull();
    }

    // Two people open the last output at once: both get its first page from the recipe at once,
    // and its snapshot is written once, in the background.
    const write = jest.spyOn(t.app.datasets.writer, 'write');
    const [a, b] = await Promise.all([records(labelled), records(labelled)]);
    await t.app.datasets.files.settled();
    expect(write).toHaveBeenCalledTimes(1);
    write.mockRestore();
    expect(a).toEqual(b);
    expect((await rowOf(labelled))?.recipe ?? null).toBeNull();
    expect(Number((await rowOf(labelled))?.row_count)).toBe(4);
    // Still deferred: opening the last step did not need its parents' snapshots.
    expect((await rowOf(imported))?.recipe).toBeTruthy();

    // The import's ids are what writing it gives: its dataset id's first 24 characters and the row's position in the file.
    const importedRows = (await records(imported)).items;
    expect(importedRows.map((r: { _id: string }) => r._id)).toEqual([0, 1, 2, 3, 4].map((i) => `${imported.slice(0, 24)}${i.toString(16).padStart(12, '0')}`));
    expect(importedRows.map((r: { name: string; city: string | null; amount: number | null }) => [r.name, r.city, r.amount])).toEqual([
      ['Ada', 'London', 12],
      ['李雷', '北京', null],
      ['Bob', null, 30],
      ["O'Brien, Jr", 'Dublin', 5],
      ['Ärger', 'München', 40],
    ]);
    // …and the later steps kept them: the same records through filter and formula.
    expect(a.items.map((r: { _id: string; label: string }) => [r._id, r.label])).toEqual([
      [importedRows[0]._id, 'London/Ada'],
      [importedRows[1]._id, '北京/李雷'],
      [importedRows[2]._id, '?/Bob'],
      [importedRows[4]._id, 'München/Ärger'],
    ]);
    expect((await api('GET', `/datasets/${filtered}`)).json().row_count).toBe(4);
  });

  it('writes a small output in the background once it is counted, so its first opening reads a snapshot', async () => {
    OutputCounts.smallOutputRows = 4;
    try {
      const { stepRuns } = await runChain();
      await t.app.datasets.files.settled();
      const [imported, filtered, labelled] = stepRuns.map((s) => s.output_dataset_id);
      // 5 rows: more than 4, left deferred; the two outputs of 4 rows written, with their count.
      expect((await rowOf(imported))?.recipe).toBeTruthy();
      for (const id of [filtered, labelled]) {
        expect((await rowOf(id))?.recipe ?? null).toBeNull();
        expect(Number((await rowOf(id))?.row_count)).toBe(4);
      }
      const write = jest.spyOn(t.app.datasets.writer, 'write');
      expect((await records(labelled)).items.map((r: { label: string }) => r.label)).toEqual(['London/Ada', '北京/李雷', '?/Bob', 'München/Ärger']);
      await t.app.datasets.files.settled();
      expect(write).not.toHaveBeenCalled();
      write.mockRestore();
    } finally {
      OutputCounts.smallOutputRows = 0;
    }
  });

  it("an aggregate over a deferred import never computes the import's ids (no window in its query), and exports the same", async () => {
    const fileId = await upload('people.csv', csv);
    const workflowId = (await wf.createWorkflow('Grouped')).id;
    const load = await wf.addStep(workflowId, 'import_csv', { param_inputs: { file: fileId } });
    const big = await wf.addStep(workflowId, 'filter', { inputs: [load.id], param_inputs: { condition: 'amount > 10 OR amount IS NULL' } });
    const group = await wf.addStep(workflowId, 'aggregate', {
      inputs: [big.id],
      param_inputs: { group_by: ['city'], aggregations: [{ column: 'amount', function: 'sum', as: 'total' }] },
    });
    const sort = await wf.addStep(workflowId, 'sort', { inputs: [group.id], param_inputs: { columns: ['city'], direction: 'ascending' } });
    const out = await wf.addStep(workflowId, 'export_csv', { inputs: [sort.id], param_inputs: { file_name: 'grouped.csv' } });
    const run = await finished((await api('POST', `/workflow-execution/${workflowId}/steps/${out.id}/execute?mode=all`, {})).json().id);
    expect(run.state).toBe('succeeded');
    const ids = run.step_runs.map((s: { output_dataset_id: string }) => s.output_dataset_id);
    const recipes = await Promise.all(ids.slice(0, 4).map(async (id: string) => JSON.parse((await rowOf(id))!.recipe!) as { sql: string; bare?: unknown }));
    expect(recipes.map((r) => r.sql.includes("printf('%s%012x'"))).toEqual([true, true, false, false]);
    expect(recipes.map((r) => !!r.bare)).toEqual([true, true, false, false]);
    // The import pinned what DuckDB sniffed: reading it again does not sniff.
    expect(recipes[0].sql).toContain('auto_detect=false');
    const files = (await api('GET', '/files/folders/root')).json();
    const saved = files.items.find((f: { name: string }) => f.name === 'grouped.csv');
    const text = (await api('GET', `/files/files/${saved.id}/download`)).body;
    expect(text.trim().split('\n')).toEqual(['city,total', 'London,12', 'München,40', '北京,', ',30']);
    // Opened, the aggregate's records are what its key makes of them.
    const grouped = (await records(ids[3])).items.map((r: { city: string | null; total: number | null }) => [r.city, r.total]);
    expect(grouped).toEqual([
      ['London', 12],
      ['München', 40],
      ['北京', null],
      [null, 30],
    ]);
  });

  it('a crash after writing a snapshot but before the row said so: the next open takes the file as it is', async () => {
    const { stepRuns } = await runChain();
    const id = stepRuns[1].output_dataset_id;
    const row = (await db().selectFrom('datasets').selectAll().where('id', '=', id).executeTakeFirst()) as { user_id: string; name: string; recipe: string };
    // What the crashed materialization left: the snapshot stored, the row still deferred.
    const { recipeRelation } = await import('../../engine/datasets');
    await t.app.datasets.writeRelation({
      ownerId: row.user_id,
      name: row.name,
      datasetId: id,
      relation: recipeRelation(JSON.parse(row.recipe)),
      idsUnique: true,
    });
    expect((await rowOf(id))?.recipe).toBeTruthy();
    const write = jest.spyOn(t.app.datasets.writer, 'write');
    const opened = (await api('GET', `/datasets/${id}`)).json();
    expect(opened.row_count).toBe(4);
    await t.app.datasets.files.settled();
    expect(write).toHaveBeenCalledTimes(1); // tried, found it stored, read its counts back
    write.mockRestore();
    expect((await rowOf(id))?.recipe ?? null).toBeNull();
    expect(Number((await rowOf(id))?.row_count)).toBe(4);
  });

  it("reads the import's own copy: deleting the uploaded file afterwards leaves its output readable", async () => {
    const { fileId, stepRuns } = await runChain();
    expect((await api('DELETE', `/files/${fileId}`)).statusCode).toBe(200);
    const body = await records(stepRuns[0].output_dataset_id);
    expect(body.total).toBe(5);
    expect((await records(stepRuns[2].output_dataset_id)).total).toBe(4);
  });

  it('Import file reads JSON Lines the deferred way too: a copy of the file, counted and read through, removed with its dataset', async () => {
    const fileId = await upload('people.jsonl', '{"name":"Ada","amount":12}\n{"name":"Bob","amount":3}\n{"name":"李雷","amount":null}\n');
    const workflowId = (await wf.createWorkflow('Lines')).id;
    const load = await wf.addStep(workflowId, 'import_file', { param_inputs: { file: fileId } });
    const big = await wf.addStep(workflowId, 'filter', { inputs: [load.id], param_inputs: { condition: 'amount > 10 OR amount IS NULL' } });
    const run = await finished((await api('POST', `/workflow-execution/${workflowId}/steps/${big.id}/execute?mode=all`, {})).json().id);
    expect(run.state).toBe('succeeded');
    const [imported, filtered] = run.step_runs.map((s: { output_dataset_id: string }) => s.output_dataset_id);
    expect(run.step_runs.map((s: { records_total: number }) => s.records_total)).toEqual([3, 2]);
    expect((await rowOf(imported))?.recipe).toBeTruthy();
    const copyKey = `datasets/${user.user.id}/${imported}.source`;
    expect(await t.app.storage.head(copyKey)).not.toBeNull();
    expect((await records(filtered)).items.map((r: { name: string }) => r.name)).toEqual(['Ada', '李雷']);
    await t.app.datasets.files.settled();

    const past = new Date(Date.now() - 60_000).toISOString();
    await db().updateTable('datasets').set({ expires_at: past }).where('id', 'in', [imported, filtered]).execute();
    await cleanDatasets(t.app.db, t.app.storage, quiet, { retentionDays: 0 });
    expect([await rowOf(imported), await rowOf(filtered)]).toEqual([undefined, undefined]);
    expect(await t.app.storage.head(copyKey)).toBeNull();
  });

  it('housekeeping keeps the datasets a deferred one reads, and removes a deferred import with its copy', async () => {
    const { stepRuns } = await runChain();
    const [imported, filtered, labelled] = stepRuns.map((s) => s.output_dataset_id);
    const copyKey = `datasets/${user.user.id}/${imported}.csv`;
    expect(await t.app.storage.head(copyKey)).not.toBeNull();
    // The import and the filter expire; the formula step's output (deferred, reading the import's copy) does not.
    const past = new Date(Date.now() - 60_000).toISOString();
    await db().updateTable('datasets').set({ expires_at: past }).where('id', 'in', [imported, filtered]).execute();
    await cleanDatasets(t.app.db, t.app.storage, quiet, { retentionDays: 0 });
    expect(await rowOf(imported)).toBeDefined();
    expect(await rowOf(filtered)).toBeUndefined();
    expect(await t.app.storage.head(copyKey)).not.toBeNull();

    // Once the formula step's output is written it reads nothing of the import: the import goes, copy and all.
    expect((await records(labelled)).total).toBe(4);
    await t.app.datasets.files.settled();
    await cleanDatasets(t.app.db, t.app.storage, quiet, { retentionDays: 0 });
    expect(await rowOf(imported)).toBeUndefined();
    expect(await t.app.storage.head(copyKey)).toBeNull();
    expect((await records(labelled)).total).toBe(4);
  });
});
