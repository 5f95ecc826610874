import fs from 'node:fs';
import path from 'node:path';
import { createHmac, randomUUID } from 'node:crypto';
// exceljs is loaded by the step that reads or writes a workbook (it takes ~0.2 s to load, which
// every process start and every test of the engine paid for).
import type * as ExcelJS from 'exceljs';
import { RECORD_ID, type DatasetMetadata, type JsonRecord, type JsonValue, type RecipeParam } from '../datasets';
import { quoteIdent, sqlString } from '../datasets/sql';
import { runBound } from '../datasets/writer';
import { checkUrl, limits as httpLimits, OutboundHttpError, requestWithRetries, type OutboundResponse } from '../outbound-http';
import type { ParamValues } from '../params';
import { renderVarTemplate } from '../references';
import { expectInputs, resolveParams, typeCategory } from './columns';
import { paramProblem } from './errors';
import { StepRunFailed } from './execute';
import type { Column, RunContext, SavedFile, SinkResult, SinkRunner, Vars } from './types';

/**
 * The sinks: each sends its one input somewhere (a file in the owner's files, a webhook) and passes
 * it on unchanged. Files are written by DuckDB (CSV, Parquet, JSON, JSON Lines: one streaming COPY)
 * or page by page (XLSX, webhook: pages of the datasets reader), never with the whole table in
 * memory, into `ctx.files.scratchDir`, then handed to `ctx.files.save`.
 */

const MAX_FILE_NAME = 255;
/** Excel's sheet size (1,048,576 rows) less the header row. */
export const XLSX_MAX_RECORDS = 1_048_575;
/** Excel's longest cell text; longer values are cut there (Excel would refuse to open the file). */
const XLSX_MAX_CELL_TEXT = 32_767;
/** Records read per page for the XLSX writer (the reader's largest page). */
const PAGE_RECORDS = 1000;

// ---------- params ----------

function one(inputs: Column[][]): Column[] {
  expectInputs(inputs, 1, 1);
  return inputs[0];
}

function enumValue<T extends string>(params: ParamValues, name: string, options: readonly T[]): T {
  const value = params[name];
  if (typeof value !== 'string' || !options.includes(value as T)) throw paramProblem([name], 'server.params.enum', { values: options.join(', ') });
  return value as T;
}

function booleanValue(params: ParamValues, name: string): boolean {
  const value = params[name];
  if (typeof value !== 'boolean') throw paramProblem([name], 'server.params.boolean');
  return value;
}

function integerValue(params: ParamValues, name: string, min: number, max: number): number {
  const value = params[name];
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw paramProblem([name], 'server.params.integer');
  if (value < min) throw paramProblem([name], 'server.params.minimum', { limit: min });
  if (value > max) throw paramProblem([name], 'server.params.maximum', { limit: max });
  return value;
}

/** Optional text (a secret, a folder id): absent, null and '' are "none". */
function optionalText(params: ParamValues, name: string): string | null {
  const value = params[name];
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw paramProblem([name], 'server.params.string');
  return value;
}

/** A text param with its `{{var.x}}` replaced by the variables' values (scalars only). */
export function renderText(template: string, vars: Vars, name: string): string {
  const rendered = renderVarTemplate(template, (variable) => {
    if (!Object.prototype.hasOwnProperty.call(vars, variable)) return undefined;
    const value = vars[variable];
    if (value === null) return '';
    if (typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return String(value);
    throw paramProblem([name], 'server.steps.variableType', { name: variable });
  });
  if ('unresolved' in rendered) throw paramProblem([name], 'server.steps.unresolvedReference', { reference: rendered.unresolved });
  return rendered.text;
}

// A name the user's files can hold on any storage and any OS a download lands on: no path
// separators, no control characters, not "." or "..".
// eslint-disable-next-line no-control-regex
const BAD_FILE_NAME = /[/\\\u0000-\u001f\u007f]/;

/** The file name a step writes: the template rendered, trimmed and checked (StepParamsInvalid at `["file_name"]`). */
export function fileName(params: ParamValues, vars: Vars, fallback: string): string {
  const template = params.file_name;
  if (template !== undefined && template !== null && typeof template !== 'string') throw paramProblem(['file_name'], 'server.params.string');
  const name = template?.trim() ? renderText(template, vars, 'file_name').trim() : fallback;
  if (!name || name.length > MAX_FILE_NAME || BAD_FILE_NAME.test(name) || name === '.' || name === '..') {
    throw paramProblem(['file_name'], 'server.steps.fileName', { name: name.length > 64 ? `${name.slice(0, 64)}…` : name });
  }
  return name;
}

/** The columns a file gets: the input's, without `_id` unless asked (a table of only `_id` keeps it: a file needs a column). */
function fileColumns(columns: readonly Column[], includeRecordId: boolean): Column[] {
  const chosen = columns.filter((c) => includeRecordId || c.name !== RECORD_ID);
  return chosen.length ? chosen : columns.filter((c) => c.name === RECORD_ID);
}

// ---------- running ----------

/** DuckDB runs `sql` (a COPY, `$n` bound to `params`), interrupted when the run is cancelled; answers the rows written. */
async function runCopy(ctx: RunContext, sql: string, params: readonly RecipeParam[] = []): Promise<number> {
  ctx.signal.throwIfAborted();
  const rows = await ctx.datasets.pool.use(async (connection) => {
    const interrupt = () => connection.interrupt();
    ctx.signal.addEventListener('abort', interrupt, { once: true });
    try {
      const result = await runBound(connection, sql, params);
      return Number(result.rowsChanged);
    } catch (err) {
      ctx.signal.throwIfAborted();
      const message = String((err as { message?: unknown })?.message ?? err).split('\n')[0];
      throw new StepRunFailed(message.slice(0, 500), err);
    } finally {
      ctx.signal.removeEventListener('abort', interrupt);
    }
  });
  ctx.signal.throwIfAborted();
  return rows;
}

/** `write` makes a file at a scratch path; it is then saved in the owner's files (moved, so nothing is left behind). */
async function writeAndSave(
  ctx: RunContext,
  name: string,
  folderId: string | null,
  extension: string,
  write: (localPath: string) => Promise<void>,
): Promise<SavedFile> {
  const localPath = path.join(ctx.files.scratchDir, `${ctx.stepRunId}-${randomUUID()}.${extension}`);
  try {
    await write(localPath);
    ctx.signal.throwIfAborted();
    return await ctx.files.save({ name, folderId, localPath });
  } finally {
    await fs.promises.rm(localPath, { force: true });
  }
}

/**
 * The input as a table expression for DuckDB (its files held until `work` ends) and the values its
 * `$n` take: a stored snapshot's Parquet file, or a deferred dataset's recipe, computed in the same
 * streaming query as the export (datasets/recipe.ts).
 */
async function withInputFile<T>(
  ctx: RunContext,
  input: DatasetMetadata,
  work: (scan: string, params: RecipeParam[]) => Promise<T>,
  withoutIds = false,
): Promise<T> {
  const relation = ctx.datasets.relationOf(input);
  // A file without `_id` reads the deferred rows without computing their ids (Relation.bare).
  if (withoutIds && relation.bare) return ctx.datasets.withRelation({ sql: relation.bare.sql, params: relation.bare.params, leaves: relation.leaves }, work);
  return ctx.datasets.withRelation(relation, work);
}

/**
 * The input's records page by page (as the records API answers them: see datasets/json-values.ts),
 * in order, reporting progress; stops at a cancelled run between pages.
 */
async function* pagesOf(ctx: RunContext, input: DatasetMetadata, pageSize: number): AsyncGenerator<JsonRecord[]> {
  const total = input.rowCount;
  let done = 0;
  for (let page = 1; done < total; page++) {
    ctx.signal.throwIfAborted();
    const { items } = await ctx.datasets.records(input, { page, pageSize });
    if (!items.length) break;
    yield items;
    done += items.length;
    ctx.progress({ done, total });
  }
}

/** The input's record count, or null while it is deferred (not known before the export counts it). */
const knownCount = (input: DatasetMetadata): number | null => (input.recipe ? null : input.rowCount);

const selectList = (columns: readonly Column[]) => columns.map((c) => quoteIdent(c.name)).join(', ');

// ---------- export_csv ----------

const DELIMITERS = { comma: ',', semicolon: ';', tab: '\t', pipe: '|' } as const;

function csvPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams('export_csv', stored, vars);
  const delimiter = DELIMITERS[enumValue(params, 'delimiter', Object.keys(DELIMITERS) as (keyof typeof DELIMITERS)[])];
  const header = booleanValue(params, 'include_header');
  const includeRecordId = booleanValue(params, 'include_record_id');
  const folderId = optionalText(params, 'folder');
  const name = vars ? fileName(params, vars, 'export.csv') : null;
  return { columns, delimiter, header, includeRecordId, folderId, name };
}

export const exportCsvRunner: SinkRunner = {
  stepType: 'export_csv',
  kind: 'sink',
  streamsInput: true,
  outputColumns: (inputs, params, vars) => csvPlan(inputs, params, vars).columns,
  async run(ctx, inputs, params) {
    const plan = csvPlan([inputs[0]?.columns ?? []], params, ctx.vars);
    const [input] = inputs;
    ctx.progress({ done: 0, total: knownCount(input), phase: 'writing' });
    let records = 0;
    const file = await writeAndSave(ctx, plan.name!, plan.folderId, 'csv', async (target) => {
      records = await withInputFile(
        ctx,
        input,
        (scan, bound) =>
          // DuckDB quotes a value only when it must (delimiter, quote, line break), doubling inner
          // quotes; NULL is an empty field, an empty text `""`, so the two stay apart.
          runCopy(
            ctx,
            `COPY (SELECT ${selectList(fileColumns(input.columns, plan.includeRecordId))} FROM ${scan}) TO ${sqlString(target)} (FORMAT csv, DELIMITER ${sqlString(plan.delimiter)}, HEADER ${plan.header}, QUOTE '"', ESCAPE '"')`,
            bound,
          ),
        !fileColumns(input.columns, plan.includeRecordId).some((c) => c.name === RECORD_ID),
      );
    });
    ctx.progress({ done: records, total: records });
    ctx.log(`Saved ${file.name} (${records} records, ${file.size} bytes)`);
    return { files: [file], summary: { records, file: file.name, bytes: file.size } };
  },
};

// ---------- export_parquet ----------

const PARQUET_COMPRESSION = { zstd: 'zstd', snappy: 'snappy', gzip: 'gzip', none: 'uncompressed' } as const;

function parquetPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams('export_parquet', stored, vars);
  const compression = PARQUET_COMPRESSION[enumValue(params, 'compression', Object.keys(PARQUET_COMPRESSION) as (keyof typeof PARQUET_COMPRESSION)[])];
  const includeRecordId = booleanValue(params, 'include_record_id');
  const folderId = optionalText(params, 'folder');
  const name = vars ? fileName(params, vars, 'export.parquet') : null;
  return { columns, compression, includeRecordId, folderId, name };
}

export const exportParquetRunner: SinkRunner = {
  stepType: 'export_parquet',
  kind: 'sink',
  streamsInput: true,
  outputColumns: (inputs, params, vars) => parquetPlan(inputs, params, vars).columns,
  async run(ctx, inputs, params) {
    const plan = parquetPlan([inputs[0]?.columns ?? []], params, ctx.vars);
    const [input] = inputs;
    ctx.progress({ done: 0, total: knownCount(input), phase: 'writing' });
    let records = 0;
    const file = await writeAndSave(ctx, plan.name!, plan.folderId, 'parquet', async (target) => {
      records = await withInputFile(
        ctx,
        input,
        (scan, bound) =>
          runCopy(
            ctx,
            `COPY (SELECT ${selectList(fileColumns(input.columns, plan.includeRecordId))} FROM ${scan}) TO ${sqlString(target)} (FORMAT parquet, COMPRESSION ${plan.compression})`,
            bound,
          ),
        !fileColumns(input.columns, plan.includeRecordId).some((c) => c.name === RECORD_ID),
      );
    });
    ctx.progress({ done: records, total: records });
    ctx.log(`Saved ${file.name} (${records} records, ${file.size} bytes)`);
    return { files: [file], summary: { records, file: file.name, bytes: file.size } };
  },
};

// ---------- export_file: JSON, JSON Lines, XLSX ----------

const FILE_FORMATS = ['json', 'jsonl', 'xlsx'] as const;

function filePlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams('export_file', stored, vars);
  const format = enumValue(params, 'format', FILE_FORMATS);
  const includeRecordId = booleanValue(params, 'include_record_id');
  const folderId = optionalText(params, 'folder');
  const name = vars ? fileName(params, vars, `export.${format}`) : null;
  return { columns, format, includeRecordId, folderId, name };
}

export const exportFileRunner: SinkRunner = {
  stepType: 'export_file',
  kind: 'sink',
  outputColumns: (inputs, params, vars) => filePlan(inputs, params, vars).columns,
  async run(ctx, inputs, params) {
    const plan = filePlan([inputs[0]?.columns ?? []], params, ctx.vars);
    const [input] = inputs;
    const columns = fileColumns(input.columns, plan.includeRecordId);
    if (plan.format === 'xlsx' && input.rowCount > XLSX_MAX_RECORDS) {
      throw new StepRunFailed(`An Excel sheet holds at most ${XLSX_MAX_RECORDS} records; the table has ${input.rowCount}`, null, {
        key: 'server.steps.xlsxTooManyRows',
        values: { limit: XLSX_MAX_RECORDS.toLocaleString('en-US'), count: input.rowCount.toLocaleString('en-US') },
      });
    }
    ctx.progress({ done: 0, total: input.rowCount, phase: 'writing' });
    const file = await writeAndSave(ctx, plan.name!, plan.folderId, plan.format, async (target) => {
      if (plan.format === 'xlsx') return writeXlsx(ctx, input, columns, target);
      // DuckDB writes each row as a JSON object (dates as "2024-01-15", numbers as numbers);
      // ARRAY makes one JSON array of them instead of one object per line.
      await withInputFile(ctx, input, (scan, bound) =>
        runCopy(ctx, `COPY (SELECT ${selectList(columns)} FROM ${scan}) TO ${sqlString(target)} (FORMAT json, ARRAY ${plan.format === 'json'})`, bound),
      );
    });
    ctx.progress({ done: input.rowCount, total: input.rowCount });
    ctx.log(`Saved ${file.name} (${input.rowCount} records, ${file.size} bytes)`);
    return { files: [file], summary: { records: input.rowCount, file: file.name, bytes: file.size } };
  },
};

const EXCEL_DATE = 'yyyy-mm-dd';
const EXCEL_TIMESTAMP = 'yyyy-mm-dd hh:mm:ss';
const dateText = /^-?\d{4,}-\d{2}-\d{2}$/;
const zoneText = /(Z|[+-]\d{2}:?\d{2})$/;

/**
 * One cell: numbers as numbers (exact big integers and decimals that a double cannot hold stay
 * text), dates and timestamps as Excel dates (UTC: a sheet has no time zones), lists and objects
 * as their JSON, text cut at Excel's limit.
 */
function excelValue(value: JsonValue, column: Column): ExcelJS.CellValue {
  if (value === null) return null;
  const category = typeCategory(column.type);
  if (category === 'number' && typeof value === 'string') {
    const n = Number(value);
    const exact = Number.isFinite(n) && (column.type.toUpperCase().startsWith('DECIMAL') ? true : Number.isSafeInteger(n));
    return exact ? n : value;
  }
  if ((category === 'date' || category === 'timestamp') && typeof value === 'string') {
    const text = dateText.test(value) ? `${value}T00:00:00Z` : zoneText.test(value) ? value : `${value}Z`;
    const date = new Date(text);
    return Number.isNaN(date.getTime()) ? value : date;
  }
  if (typeof value === 'object') value = JSON.stringify(value);
  if (typeof value === 'string' && value.length > XLSX_MAX_CELL_TEXT) return value.slice(0, XLSX_MAX_CELL_TEXT);
  return value;
}

/** Streams the workbook to disk (exceljs' WorkbookWriter), a page of records at a time. */
async function writeXlsx(ctx: RunContext, input: DatasetMetadata, columns: Column[], target: string): Promise<void> {
  const { stream } = await import('exceljs');
  const workbook = new stream.xlsx.WorkbookWriter({ filename: target, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Data');
  sheet.columns = columns.map((c) => {
    const category = typeCategory(c.type);
    const numFmt = category === 'date' ? EXCEL_DATE : category === 'timestamp' ? EXCEL_TIMESTAMP : undefined;
    return { header: c.name, key: c.name, width: Math.min(50, Math.max(10, c.name.length + 2)), ...(numFmt ? { style: { numFmt } } : {}) };
  });
  sheet.getRow(1).font = { bold: true };
  for await (const page of pagesOf(ctx, input, PAGE_RECORDS)) {
    for (const record of page) sheet.addRow(columns.map((c) => excelValue(record[c.name] ?? null, c))).commit();
  }
  sheet.commit();
  await workbook.commit();
}

// ---------- webhook ----------

/** Retries of one webhook request: 429 and 5xx answers and network errors, honouring Retry-After. */
export const WEBHOOK_RETRIES = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 10_000, maxRetryAfterMs: 60_000 } as const;
export const SIGNATURE_HEADER = 'X-Stepwise-Signature';
/** Only the status matters, but the answer is read whole: a chatty receiver's 2xx must not fail the step. */
const WEBHOOK_MAX_ANSWER_BYTES = 1024 * 1024;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/;

function webhookPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams('webhook', stored, vars);
  const perRequest = integerValue(params, 'records_per_request', 1, 1000);
  const allInOne = booleanValue(params, 'all_in_one_request');
  const timeoutSeconds = integerValue(params, 'timeout_seconds', 1, 120);
  const secretHeader = optionalText(params, 'secret_header') ?? 'Authorization';
  if (!HEADER_NAME.test(secretHeader)) throw paramProblem(['secret_header'], 'server.steps.headerName', { name: secretHeader.slice(0, 64) });
  const secret = optionalText(params, 'secret');
  const signingSecret = optionalText(params, 'signing_secret');
  if (typeof params.url !== 'string' || !params.url.trim()) throw paramProblem(['url'], 'server.params.required');
  let url: string | null = null;
  if (vars) {
    url = renderText(params.url, vars, 'url').trim();
    try {
      checkUrl(url);
    } catch (err) {
      if (err instanceof OutboundHttpError) throw paramProblem(['url'], err.key, err.values);
      throw err;
    }
  }
  return { columns, perRequest, allInOne, timeoutMs: timeoutSeconds * 1000, secretHeader, secret, signingSecret, url };
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, as Stripe signs: the time in the signed text stops replays. */
export function webhookSignature(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export const webhookRunner: SinkRunner = {
  stepType: 'webhook',
  kind: 'sink',
  outputColumns: (inputs, params, vars) => webhookPlan(inputs, params, vars).columns,
  async run(ctx, inputs, params): Promise<SinkResult> {
    const plan = webhookPlan([inputs[0]?.columns ?? []], params, ctx.vars);
    const [input] = inputs;
    const maxBody = httpLimits.maxRequestBodyBytes;
    const pageSize = plan.allInOne ? PAGE_RECORDS : plan.perRequest;
    // An empty table sends nothing: a receiver would only learn that there was nothing to learn.
    const requests = input.rowCount === 0 ? 0 : plan.allInOne ? 1 : Math.ceil(input.rowCount / plan.perRequest);
    const tooLarge = () =>
      new StepRunFailed(`The request body would exceed ${maxBody} bytes`, null, { key: 'server.steps.webhookTooLarge', values: { limit: maxBody } });
    let sent = 0;
    let records = 0;
    let lastStatus: number | null = null;

    const send = async (recordsJson: string, count: number) => {
      const request = sent + 1;
      // The delivery id is the same when a request is retried, so a receiver can drop repeats.
      const body = `{"delivery_id":${JSON.stringify(`${ctx.stepRunId}-${request}`)},"request":${request},"requests":${requests},"records":[${recordsJson}]}`;
      if (Buffer.byteLength(body) > maxBody) throw tooLarge();
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (plan.secret !== null) headers[plan.secretHeader] = plan.secret;
      if (plan.signingSecret !== null) headers[SIGNATURE_HEADER] = webhookSignature(plan.signingSecret, body, Math.floor(Date.now() / 1000));
      let attempts = 0;
      let response: OutboundResponse;
      try {
        response = await requestWithRetries(
          { request: (r) => (attempts++, ctx.http.request(r)) },
          { method: 'POST', url: plan.url!, headers, body, timeoutMs: plan.timeoutMs, maxResponseBytes: WEBHOOK_MAX_ANSWER_BYTES, signal: ctx.signal },
          {
            ...WEBHOOK_RETRIES,
            // A webhook POST is meant to be delivered at least once; the delivery id dedupes.
            retryNonIdempotent: true,
            onRetry: ({ attempt, delayMs, reason }) =>
              ctx.log(`Webhook request ${request}: attempt ${attempt} failed (${reason}), retrying in ${Math.round(delayMs)} ms`),
          },
        );
      } catch (err) {
        ctx.signal.throwIfAborted();
        if (err instanceof OutboundHttpError) throw new StepRunFailed(`Webhook request ${request}: ${err.kind}`, err, { key: err.key, values: err.values });
        throw err;
      }
      lastStatus = response.status;
      if (response.status < 200 || response.status > 299) {
        throw new StepRunFailed(`The webhook answered ${response.status} to request ${request}`, null, {
          key: 'server.steps.webhookStatus',
          values: { status: response.status, request, requests, attempts },
        });
      }
      sent++;
      records += count;
      ctx.log(`Webhook request ${request} of ${requests}: ${count} records, status ${response.status}`);
    };

    ctx.progress({ done: 0, total: input.rowCount, phase: 'sending' });
    const pending: string[] = [];
    let pendingBytes = 0;
    for await (const page of pagesOf(ctx, input, pageSize)) {
      if (!plan.allInOne) {
        await send(page.map((r) => JSON.stringify(r)).join(','), page.length);
        continue;
      }
      for (const record of page) {
        const json = JSON.stringify(record);
        pendingBytes += Buffer.byteLength(json) + 1;
        // Checked while gathering, so a table far over the limit is refused without holding it all.
        if (pendingBytes > maxBody) throw tooLarge();
        pending.push(json);
      }
    }
    if (plan.allInOne && pending.length) await send(pending.join(','), pending.length);
    if (!requests) ctx.log('The table is empty: no webhook request sent');
    ctx.progress({ done: input.rowCount, total: input.rowCount });
    return { summary: { requests: sent, records, last_status: lastStatus } };
  },
};
