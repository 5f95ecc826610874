import type { EmbeddingModel } from 'ai';
import type { ChatModel } from '../../ai';
import type { DatasetColumn, DatasetMetadata, DatasetRecipe, Datasets, JsonRecord, JsonValue, RowColumnType } from '../datasets';
import type { OutboundHttpClient } from '../outbound-http';
import type { ParamValues } from '../params';
import type { LogKey, LogValues } from '../run-log';
import type { StepParamsInvalid } from './errors';

/**
 * How a step type runs (ARCHITECTURE.md, decision 6): its module in `step-types/` holds its
 * description and this runner together (`StepType.runner`). See README.md in this folder.
 */

/** A column as datasets describe them: name and DuckDB type (`UNKNOWN` when only DuckDB can tell, see README). */
export type Column = DatasetColumn;

/** The workflow's variables by name; a value an expression binds must be text, a number, a boolean or null. */
export type Vars = Readonly<Record<string, unknown>>;

export type SqlParam = string | number | boolean | null;

/** A SELECT and the values bound to its `$1`, `$2`… (never spliced into the text). */
export interface SqlQuery {
  sql: string;
  params: SqlParam[];
}

/** One input of a SQL step: the table expression reading its snapshot, and its columns (`_id` included). */
export interface SqlInput {
  table: string;
  columns: Column[];
}

export type RunnerKind = 'sql' | 'per-record' | 'source' | 'sink';

interface RunnerBase {
  /**
   * The columns the step produces (`_id` first), from its inputs' columns and its params, without
   * running anything: column pickers, `variable-fields` and the check before a run read this.
   * Throws StepParamsInvalid naming the param and the column when a param refers to a column the
   * input lacks or one of the wrong type. `params` are as stored (defaults are applied here).
   */
  outputColumns(inputs: Column[][], params: ParamValues, vars?: Vars): Column[];
}

/** Set-based: one SELECT over the input relations, run by DuckDB into the new snapshot. */
export interface SqlRunner extends RunnerBase {
  kind: 'sql';
  /**
   * True when every `_id` the SELECT keeps is one of its single input's records, at most once, or
   * made from a group key (filters, sorts, formulas, aggregates): since every dataset's ids are
   * unique, the output's are too, and the writer skips checking them (a `count(DISTINCT _id)` over
   * the whole output). Absent for steps that can repeat a record (join, union, split to rows).
   */
  keepsIdsUnique?: boolean;
  /**
   * The SELECT. It selects `_id` where records persist (see README for aggregate, join, union),
   * checks everything `outputColumns` checks, and binds every user value as a parameter.
   */
  toSql(inputs: SqlInput[], params: ParamValues, vars?: Vars): SqlQuery;
  /**
   * For a param only DuckDB can check (a regular expression that does not compile): turns DuckDB's
   * error while running (its first line) into the param's problem, so the person sees it under
   * that param (422) rather than as a failed run. Null: the error stays a StepRunFailed.
   */
  paramFailure?(reason: string, params: ParamValues): StepParamsInvalid | null;
}

/**
 * What a running step may use, built by the run engine for each step run (per-record steps: for
 * each batch). Everything the engine knows about users, files and the database comes through here,
 * so runners stay free of HTTP and of the modules.
 */
export interface RunContext {
  readonly ownerId: string;
  readonly stepRunId: string;
  /** Aborted when the run is paused or cancelled or the process shuts down: stop soon, keep nothing half-done. */
  readonly signal: AbortSignal;
  /** The workflow's variables by name, secrets decrypted (never log them). */
  readonly vars: Vars;
  /** A preview run: sources read at most this many records (null: all). */
  readonly sampleSize: number | null;
  readonly datasets: Datasets;
  readonly files: UserFiles;
  /** Outbound HTTP with the operator's address policy (private addresses refused unless allowed). */
  readonly http: OutboundHttpClient;
  /**
   * The step run's outside calls checkpointed one by one: a per-record step that calls another
   * system stores each record's result as its answer arrives and, before calling, takes the
   * results already stored, so a batch redone after a pause, a crash or a kill repeats only the
   * calls that were in flight.
   */
  readonly calls: CallJournal;
  /**
   * The dataset a source or the engine writes for this step run: pass `id` as `datasetId` and
   * `name` as `name` to `datasets.write` (a retry after a crash then writes the same record ids).
   */
  readonly output: { readonly datasetId: string; readonly name: string };
  /**
   * One of the owner's datasets by id (the `dataset` param of a source): the engine checks the
   * owner; another user's dataset or a missing one throws StepRunFailed naming it.
   */
  dataset(datasetId: string): Promise<DatasetMetadata>;
  /**
   * Records billable work (issue 8/8 prices it), e.g. one HTTP call. `key` names the unit of work
   * within the step run (a record id): the same key counts once, so a batch redone after a crash
   * pays nothing twice. Recorded when the batch (or the step) is stored.
   */
  usage(event: { kind: string; quantity: number; key: string }): void;
  /** The AI models and the answer cache, for the AI steps (`per-record/ai.ts`). */
  readonly ai: AiAccess;
  /**
   * One line for the run's log: a `server.runLog.*` catalog key and its values, shown in the
   * reader's language (the last lines are kept per compute job; engine/run-log.ts).
   */
  log(key: LogKey, values?: LogValues): void;
  /** Work done so far, for progress bars: records (or bytes, with `unit`) done of `total`. */
  progress(update: { done: number; total?: number | null; phase?: string }): void;
}

/**
 * What the AI steps use, built by the run engine from the model settings that apply to the run's
 * owner. `chat()` and `embedding()` throw NoModelConfigured (`ai/`) when no model is set up.
 */
export interface AiAccess {
  /** The chat model; `model` asks the same endpoint for another model by name. */
  chat(model?: string): ChatModel;
  /** An embedding model by name on the same endpoint, and the id answers are cached under. */
  embedding(model: string): { model: EmbeddingModel; id: string };
  /** One model call's time limit (LLM_TIMEOUT_MS). */
  readonly timeoutMs: number;
  /** The first wait before a retry when the provider names none, doubled at each retry (default 1 s). */
  readonly retryBackoffMs?: number;
  /** Answers already paid for, by a key made from the model, the prompt and the inputs. */
  readonly cache: AnswerCache;
}

/** A record's finished outside call, as the step made it into a row. */
export interface FinishedCall {
  /** The row's values the call produced (with the record's `_id`). */
  row: JsonRecord;
  /** A failed record (kept with "keep going on errors"): "retry failed records" calls it again. */
  failed: boolean;
}

/** The finished outside calls of one step run, by the record's `_id` (engine/run/call-journal.ts). */
export interface CallJournal {
  /** The calls of these records already finished (a batch redone); missing keys are absent. */
  finished(keys: readonly string[]): Promise<Map<string, FinishedCall>>;
  /** Stores one call as soon as it finished; resolves once it is stored. */
  record(key: string, call: FinishedCall): Promise<void>;
}

/** The owner's cached model answers (a table the run engine keeps bounded). */
export interface AnswerCache {
  /** The answers found, by key; missing keys are absent. */
  get(keys: readonly string[]): Promise<Map<string, CachedAnswer>>;
  put(entries: readonly ({ key: string; modelId: string } & CachedAnswer)[]): Promise<void>;
}

/**
 * A stored answer, with the step run and record that paid for it and its tokens: an answer found
 * again by the same step run (a batch redone after a crash, whose usage was not stored yet) records
 * those tokens again under the paying record's key, so they are paid exactly once; any other run,
 * or another record asking the same, pays nothing.
 */
export interface CachedAnswer {
  answer: JsonValue;
  stepRunId: string | null;
  recordId: string | null;
  tokensIn: number;
  tokensOut: number;
}

/** The owner's files, as steps need them. Ids are checked against the owner; another user's file is not found. */
export interface UserFiles {
  /**
   * Runs `fn` with a local copy (or the file itself, on local storage) at a path DuckDB may read,
   * deleted afterwards. A missing file throws StepRunFailed naming it.
   */
  withLocalFile<T>(fileId: string, fn: (file: LocalUserFile) => Promise<T>): Promise<T>;
  /** The files in a folder and its subfolders (`path` relative to it, with `/`), by path. */
  listFolder(folderId: string): Promise<FolderEntry[]>;
  /**
   * Saves a new file in the owner's files from a local file (moved, not copied) and answers it. An
   * existing name in the folder gets a free name ("export (1).csv"), as uploads do.
   */
  save(request: { name: string; folderId?: string | null; localPath: string }): Promise<SavedFile>;
  /**
   * Copies the file (server-side: a hard link on local storage) to `storageKey` under `datasets/`,
   * for a deferred dataset that reads it later: replacing or deleting the file leaves the copy.
   * A missing file throws StepRunFailed naming it.
   */
  keep?(fileId: string, storageKey: string): Promise<{ id: string; name: string; size: number }>;
  /** A folder DuckDB may read and write, for files a step makes before `save` (deleted with the step run's work). */
  readonly scratchDir: string;
}

export interface LocalUserFile {
  id: string;
  name: string;
  size: number;
  path: string;
}

export interface FolderEntry {
  id: string;
  name: string;
  /** Relative to the folder listed, e.g. `2024/march.csv`. */
  path: string;
  size: number;
}

export interface SavedFile {
  id: string;
  name: string;
  folderId: string | null;
  size: number;
}

/** Makes its dataset from outside the workflow: files, a folder, a dataset, an API, a typed table. */
export interface SourceRunner extends RunnerBase {
  kind: 'source';
  /**
   * Writes the step's dataset (`ctx.output`) and answers its metadata. Reads at most
   * `ctx.sampleSize` records when set. `outputColumns` of a source may be `[]` when only reading
   * tells (a CSV's header); the engine then uses the written dataset's columns.
   */
  run(ctx: RunContext, params: ParamValues): Promise<DatasetMetadata>;
  /**
   * Instead of `run`: registers `ctx.output` as deferred (datasets/recipe.ts), reading an
   * immutable copy the dataset owns, so nothing is written until someone needs the snapshot.
   * Answers the recipe, or null when the source must be written now (`run` is then called).
   */
  defer?(ctx: RunContext, params: ParamValues): Promise<DatasetRecipe | null>;
}

/** Sends its input somewhere (a file in the user's files, a webhook); its output is its input, unchanged. */
export interface SinkRunner extends RunnerBase {
  kind: 'sink';
  /**
   * Reads its input in one streaming query (through `ctx.datasets.withRelation`), so a deferred
   * input is computed there and never written; without it the engine materializes a deferred
   * input first (its row count and random access are then known).
   */
  streamsInput?: boolean;
  /** Answers what it made, for the run panel and the step's log (files written, calls made). */
  run(ctx: RunContext, inputs: readonly DatasetMetadata[], params: ParamValues): Promise<SinkResult>;
}

export interface SinkResult {
  files?: SavedFile[];
  /** Small JSON for the run panel, e.g. `{ rows: 1200, status: 200 }`. */
  summary?: Record<string, JsonValue>;
}

/**
 * Per record, in checkpointed batches (code, HTTP request, AI): the engine reads the input in
 * batches of `batchSize(params)` records in order, calls `processBatch` for each, stores each
 * batch's result before marking it done, and after a crash, pause or cancel starts again at the
 * first batch not done. So `processBatch` may run again for a batch whose result was lost, never
 * for one that was stored.
 */
export interface PerRecordRunner extends RunnerBase {
  kind: 'per-record';
  /**
   * - `append`: each result row is `{_id, ...new columns}` for the input record of that `_id`; the
   *   engine joins them to the input, so the input's columns keep their types; a record without a
   *   result row gets NULLs. The new columns and their types are `appendedColumns`.
   * - `replace`: result rows are the output records themselves (the code step: any shape; a row
   *   keeping an input record's `_id` keeps its identity); DuckDB infers the columns' types.
   */
  output: 'append' | 'replace';
  batchSize(params: ParamValues): number;
  /** `append` only: the columns added, after checking params against the input's columns. */
  appendedColumns?(input: Column[], params: ParamValues, vars?: Vars): AppendedColumn[];
  processBatch(ctx: RunContext, records: readonly JsonRecord[], params: ParamValues): Promise<BatchOutput>;
  /**
   * The next batch may start while this one's last records are still under way: the runner keeps
   * its limits (concurrency, rate) per step run, not per batch, so the two batches share them and
   * the slots the current batch's tail leaves free go to the next one's records instead of idling.
   */
  overlapBatches?: boolean;
}

/**
 * A column a per-record step appends: a row value type, or `DOUBLE[]` (a list of numbers, such as
 * an embedding). The engine reads the batches' rows back with DuckDB's JSON reader under these
 * types, so a list of numbers arrives as a DuckDB list.
 */
export interface AppendedColumn {
  name: string;
  type: RowColumnType | 'DOUBLE[]';
}

export interface BatchOutput {
  rows: JsonRecord[];
  /** Records that failed but did not fail the step (continue on error); retry of failed records redoes them. */
  failedIds?: string[];
}

export type StepRunner = SqlRunner | SourceRunner | SinkRunner | PerRecordRunner;
