import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Storage } from '../../storage';
import { RECORD_ID, type DatasetMetadata, type Datasets, type JsonRecord, type RecordsPage } from '../datasets';
import { quoteIdent, sqlString } from '../datasets/sql';
import type { ParamValues } from '../params';
import type { BatchOutput, PerRecordRunner, RunContext } from '../runners';
import type { ReportedUsage, RunStore } from './ports';

/** The most records one batch may hold (one records page of the dataset reader). */
export const MAX_BATCH_SIZE = 1000;

/** Where a batch's finished output part is kept until the step's dataset is written. */
export const partKey = (ownerId: string, stepRunId: string, batchNo: number) => `runs/${ownerId}/${stepRunId}/part-${String(batchNo).padStart(8, '0')}.jsonl`;
export const partsPrefix = (ownerId: string, stepRunId: string) => `runs/${ownerId}/${stepRunId}/`;

/** A batch whose records have been processed, before its part is stored. */
interface ProcessedBatch {
  page: RecordsPage;
  records: readonly JsonRecord[];
  /** The records a "retry failed records" redid (the others keep their stored answers), or null. */
  failedBefore: Set<string> | null;
  used: ReportedUsage[];
  result: BatchOutput;
}

/** What a batch keeps for a later "retry failed records": which of its records failed. */
interface BatchCheckpoint {
  failed_ids: string[];
}

// Order of a result row inside the step's output: the batch, then its place in the batch.
const BATCH = '__stepwise_batch';
const SEQ = '__stepwise_seq';

export interface BatchRunRequest {
  ctx: RunContext;
  runner: PerRecordRunner;
  input: DatasetMetadata;
  params: ParamValues;
  stepRunId: string;
  /** Where parts are downloaded to be combined (DuckDB may read it). */
  workDir: string;
  /**
   * Stores and charges what one batch recorded with `ctx.usage` (`recordIds`: the records it processed);
   * runs before the batch counts as done, so a crash redoes it under the same keys.
   */
  flushUsage: (batch: { no: number; recordIds: ReadonlySet<string> }, used: ReportedUsage[]) => Promise<void>;
  /** After a batch counts as done: the engine may pause the run there (credits ran out). */
  afterBatch?: () => Promise<void>;
  /** The outside calls checkpointed one by one (`ctx.calls`): a stored batch's are dropped, its part holds them. */
  calls?: { forget(keys: Iterable<string>): Promise<void> };
}

/**
 * Runs a per-record step in checkpointed batches (engine/runners' PerRecordRunner):
 *
 *   input records [0, n) ─► batch 0, 1, 2… ─► processBatch ─► part-<no>.jsonl in storage ─► batch row `succeeded`
 *                                                                  └──────── once all are done ─► one Parquet dataset
 *
 * A batch counts as done only once its part is stored and its row says so, in that order, so after
 * a crash, a pause or a cancel the step starts again at the first batch not done: no record is
 * processed twice once stored, and none is lost. A batch redone after a crash overwrites its part
 * with the same records (same key), so the output never holds a record twice either.
 */
export class PerRecordBatches {
  constructor(
    private readonly repo: RunStore,
    private readonly storage: Storage,
    private readonly datasets: Datasets,
  ) {}

  async run(request: BatchRunRequest): Promise<{ output: DatasetMetadata; failed: number }> {
    const { ctx, runner, input, params, stepRunId } = request;
    const size = Math.max(1, Math.min(MAX_BATCH_SIZE, Math.floor(runner.batchSize(params)) || 1));
    const total = input.rowCount;
    const count = Math.ceil(total / size);
    const done = new Map((await this.repo.batchesOf(stepRunId)).filter((b) => b.state === 'succeeded').map((b) => [b.batch_no, b]));
    let processed = 0;
    let failed = 0;
    for (const b of done.values()) {
      processed += Number(b.record_count);
      failed += Number(b.records_failed);
    }
    if (done.size) ctx.log('server.runLog.resuming', { batches: done.size, records: processed });
    ctx.progress({ done: processed, total, phase: 'records' });

    // Batches reopened by "retry failed records": only their failed records are called again.
    const reopened = new Map(
      (await this.repo.batchesOf(stepRunId))
        .filter((b) => b.state !== 'succeeded' && b.checkpoint && b.output_key && runner.output === 'append')
        .map((b) => [b.batch_no, b]),
    );
    const pending = Array.from({ length: count }, (_, no) => no).filter((no) => !done.has(no));
    // Stops the batches still running when the one before fails (a stop of the run reaches them
    // through ctx.signal), so no overlapped batch goes on calling after the step has failed.
    const stopBatches = new AbortController();
    const batchCtx: RunContext = { ...ctx, signal: AbortSignal.any([ctx.signal, stopBatches.signal]) };
    const pages = new Map<number, Promise<RecordsPage>>();
    const pageOf = (i: number) => {
      let page = pages.get(i);
      if (!page) {
        page = this.datasets.records(input, { page: pending[i] + 1, pageSize: size });
        page.catch(() => undefined); // awaited on its turn; a stop before then must not leave it unhandled
        pages.set(i, page);
      }
      return page;
    };
    const running = new Map<number, Promise<ProcessedBatch>>();
    // Starts batch i (once): its records are read, and the next batch's while it runs.
    const begin = (i: number) => {
      if (i >= pending.length || running.has(i)) return;
      const work = (async (): Promise<ProcessedBatch> => {
        const page = await pageOf(i);
        if (i + 1 < pending.length) void pageOf(i + 1);
        batchCtx.signal.throwIfAborted();
        const retry = reopened.get(pending[i]);
        const failedBefore = retry ? new Set((JSON.parse(retry.checkpoint!) as BatchCheckpoint).failed_ids) : null;
        const records = failedBefore ? page.items.filter((r) => failedBefore.has(String(r[RECORD_ID]))) : page.items;
        // Each batch's usage apart: batches overlap, and each is charged under its own key.
        const used: ReportedUsage[] = [];
        const result = await runner.processBatch({ ...batchCtx, usage: (event) => used.push(event) }, records, params);
        return { page, records, failedBefore, used, result };
      })();
      work.catch(() => undefined); // awaited on its turn, or settled in the finally below
      running.set(i, work);
    };
    // Stages overlap: while a batch runs, the next page is read (DuckDB) and the batch before is
    // stored; a runner that shares its limits across batches (`overlapBatches`) also has the next
    // batch running, so its calls fill the slots the current batch's last calls leave free.
    // Batches are still recorded one at a time in order, each only after its part is stored, so a
    // stop or a crash resumes as before.
    const depth = runner.overlapBatches ? 2 : 1;
    let storing: Promise<void> = Promise.resolve();
    try {
      for (let i = 0; i < pending.length; i++) {
        const no = pending[i];
        ctx.signal.throwIfAborted();
        for (let ahead = i; ahead < i + depth; ahead++) begin(ahead);
        const { page, records, failedBefore, used, result } = await running.get(i)!;
        running.delete(i);
        pages.delete(i);
        ctx.signal.throwIfAborted();
        await storing;
        // Stopped while the batch before was stored (a pause for credits comes from there): this one
        // is redone on resume, unstored and uncharged, so the run stops at that batch boundary.
        ctx.signal.throwIfAborted();
        // The records not retried keep the answers their part holds.
        const rows = failedBefore
          ? [...(await this.readPart(partKey(ctx.ownerId, stepRunId, no))).filter((r) => !failedBefore.has(String(r[RECORD_ID]))), ...result.rows]
          : result.rows;
        const recordIds = new Set(records.map((r) => String(r[RECORD_ID])));
        const flush = () => request.flushUsage({ no, recordIds }, used);
        const afterBatch = async () => {
          await request.calls?.forget(recordIds);
          await request.afterBatch?.();
        };
        storing = this.store(ctx, stepRunId, no, size, page.items.length, { rows, failedIds: result.failedIds }, flush, afterBatch).then((failedHere) => {
          processed += page.items.length;
          failed += failedHere;
          ctx.progress({ done: processed, total, phase: 'records' });
        });
        storing.catch(() => undefined); // awaited before the next store or at the end
      }
      await storing;
    } catch (err) {
      stopBatches.abort(err);
      throw err;
    } finally {
      // A stop in the middle still records the batch being stored (it is finished work), and the
      // step ends only once no batch of it is still running.
      await storing.catch(() => undefined);
      await Promise.allSettled([...running.values(), ...pages.values()]);
    }

    ctx.progress({ done: processed, total, phase: 'writing' });
    const output = await this.combine(request, count);
    return { output, failed };
  }

  /** A stored part's rows, without the engine's ordering fields. */
  private async readPart(key: string): Promise<JsonRecord[]> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.storage.get(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks)
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const { [BATCH]: _batch, [SEQ]: _seq, ...row } = JSON.parse(line) as JsonRecord;
        return row;
      });
  }

  /** Stores a finished batch's part, then marks the batch done; answers its failed records. */
  private async store(
    ctx: RunContext,
    stepRunId: string,
    no: number,
    size: number,
    records: number,
    result: { rows: readonly JsonRecord[]; failedIds?: readonly string[] },
    flushUsage: () => Promise<void>,
    afterBatch: (() => Promise<void>) | undefined,
  ): Promise<number> {
    const key = partKey(ctx.ownerId, stepRunId, no);
    // One chunk, not a write per line: a part is at most one batch.
    await this.storage.put(key, Readable.from([jsonLines(result.rows, no)]));
    const failedIds = result.failedIds ?? [];
    const failedHere = failedIds.length;
    await flushUsage();
    await this.repo.finishBatch({
      step_run_id: stepRunId,
      batch_no: no,
      first_record: no * size,
      record_count: records,
      records_failed: failedHere,
      output_key: key,
      checkpoint: failedHere ? JSON.stringify({ failed_ids: [...failedIds] } satisfies BatchCheckpoint) : null,
    });
    await afterBatch?.();
    return failedHere;
  }

  /** Writes the step's dataset from the stored parts, in input order. */
  private async combine(request: BatchRunRequest, count: number): Promise<DatasetMetadata> {
    const { ctx, runner, input, params, workDir } = request;
    const dir = path.join(workDir, 'parts');
    await fs.promises.mkdir(dir, { recursive: true });
    const files: string[] = [];
    try {
      for (let no = 0; no < count; no++) {
        const local = path.join(dir, `part-${no}.jsonl`);
        await pipeline(await this.storage.get(partKey(ctx.ownerId, request.stepRunId, no)), fs.createWriteStream(local));
        if ((await fs.promises.stat(local)).size > 0) files.push(local);
      }
      const write = { ownerId: ctx.ownerId, name: ctx.output.name, datasetId: ctx.output.datasetId, stepRunId: request.stepRunId, inputs: [input] };
      if (runner.output === 'append') {
        const added = runner.appendedColumns?.(input.columns, params, ctx.vars) ?? [];
        const addedNames = new Set(added.map((c) => c.name.toLowerCase()));
        const kept = input.columns.filter((c) => !addedNames.has(c.name.toLowerCase())).map((c) => `i.${quoteIdent(c.name)}`);
        const results = files.length
          ? `(SELECT * FROM read_json([${files.map(sqlString).join(', ')}], format = 'newline_delimited', columns = {${[`${sqlString(RECORD_ID)}: 'VARCHAR'`, ...added.map((c) => `${sqlString(c.name)}: ${sqlString(c.type)}`)].join(', ')}}))`
          : `(SELECT CAST(NULL AS VARCHAR) AS ${quoteIdent(RECORD_ID)}${added.map((c) => `, CAST(NULL AS ${c.type}) AS ${quoteIdent(c.name)}`).join('')} WHERE false)`;
        return await this.datasets.write({
          ...write,
          // Each input record once, joined to at most one result row by its id.
          idsUnique: true,
          source: {
            sql: ([table]) =>
              `SELECT ${[...kept, ...added.map((c) => `p.${quoteIdent(c.name)}`)].join(', ')} ` +
              `FROM (SELECT *, row_number() OVER () AS ${quoteIdent(SEQ)} FROM ${table}) i ` +
              `LEFT JOIN ${results} p ON p.${quoteIdent(RECORD_ID)} = i.${quoteIdent(RECORD_ID)} ORDER BY i.${quoteIdent(SEQ)}`,
          },
        });
      }
      if (!files.length) return await this.datasets.write({ ...write, source: { columns: [], batches: [] } });
      return await this.datasets.write({
        ...write,
        source: {
          sql: () =>
            `SELECT * EXCLUDE (${quoteIdent(BATCH)}, ${quoteIdent(SEQ)}) FROM read_json([${files.map(sqlString).join(', ')}], format = 'newline_delimited', union_by_name = true) ` +
            `ORDER BY ${quoteIdent(BATCH)}, ${quoteIdent(SEQ)}`,
        },
      });
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }
}

function jsonLines(rows: readonly JsonRecord[], batchNo: number): string {
  let seq = 0;
  let text = '';
  for (const row of rows) text += `${JSON.stringify({ ...row, [BATCH]: batchNo, [SEQ]: seq++ })}\n`;
  return text;
}
