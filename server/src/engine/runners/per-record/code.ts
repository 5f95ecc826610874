import type { JsonRecord, JsonValue } from '../../datasets';
import { translate } from '../../../i18n/messages';
import type { ParamValues } from '../../params';
import { SandboxError, SandboxPool, type CodeMode, type LogLine } from '../../sandbox';
import { expectInputs, RECORD_ID, resolveParams } from '../columns';
import { paramProblem } from '../errors';
import { StepRunFailed } from '../execute';
import type { PerRecordRunner, RunContext, Vars } from '../types';

/**
 * The code step (`step-types/code.ts`): the user's JavaScript over each batch, in the QuickJS
 * sandbox run by a pool of worker threads (`sandbox/worker-pool.ts`), so `timeout_ms` is a hard
 * stop even inside one long built-in call. Output `replace`: the rows are whatever the code
 * returns; a row whose `_id` is one of its batch's input records keeps that record's identity,
 * any other `_id` (made up, not text, or a repeat of a fan-out) is dropped so the writer gives
 * the row a new one.
 */

export const CODE_BATCH_SIZE = 500;
const TIMEOUT_MIN = 100;
const TIMEOUT_MAX = 30_000;

interface CodePlan {
  code: string;
  mode: CodeMode;
  timeoutMs: number;
}

function codePlan(stored: ParamValues, vars?: Vars): CodePlan {
  const params = resolveParams('code', stored, vars);
  const { code, mode, timeout_ms: timeoutMs } = params;
  if (typeof code !== 'string' || !code.trim()) throw paramProblem(['code'], 'server.params.required');
  if (mode !== 'per_record' && mode !== 'per_batch') throw paramProblem(['mode'], 'server.params.enum', { values: 'per_record, per_batch' });
  if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs)) throw paramProblem(['timeout_ms'], 'server.params.integer');
  if (timeoutMs < TIMEOUT_MIN) throw paramProblem(['timeout_ms'], 'server.params.minimum', { limit: TIMEOUT_MIN });
  if (timeoutMs > TIMEOUT_MAX) throw paramProblem(['timeout_ms'], 'server.params.maximum', { limit: TIMEOUT_MAX });
  return { code, mode, timeoutMs };
}

/** The workflow's variables as the code sees them: JSON only (a value JSON cannot carry is left out). */
function jsonVars(vars: Vars): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(vars)) {
    try {
      const text = JSON.stringify(value);
      if (text !== undefined) out[name] = JSON.parse(text) as JsonValue;
    } catch {
      // A BigInt or a cycle in a variable: the code cannot receive it, so it does not exist there.
    }
  }
  return out;
}

const recordName = (records: readonly JsonRecord[], index: number): string => {
  const id = records[index]?.[RECORD_ID];
  return typeof id === 'string' ? `record “${id}”, number ${index + 1} of its batch` : `record number ${index + 1} of its batch`;
};

/** A sandbox failure as the step's failure: the English text (it goes to the run's log) plus the record and line. */
function stepFailure(err: SandboxError, records: readonly JsonRecord[]): StepRunFailed {
  const where = [err.recordIndex === undefined ? null : recordName(records, err.recordIndex), err.line === undefined ? null : `line ${err.line}`].filter(
    Boolean,
  );
  const text = translate('en', err.key, err.values);
  return new StepRunFailed(where.length ? `${text} (${where.join(', ')})` : text, err);
}

function logLine(line: LogLine, records: readonly JsonRecord[]): string {
  const where = line.record === null ? '' : ` ${recordName(records, line.record).replace(/, number .*$/, '')}`;
  return `console.${line.level}${where}: ${line.text}`;
}

/** Keeps `_id` only where it names one of the batch's input records, and only on its first row. */
function withIdentity(rows: JsonRecord[], records: readonly JsonRecord[]): JsonRecord[] {
  const inputIds = new Set(records.map((r) => r[RECORD_ID]).filter((id): id is string => typeof id === 'string'));
  const used = new Set<string>();
  return rows.map((row) => {
    if (!(RECORD_ID in row)) return row;
    const id = row[RECORD_ID];
    if (typeof id === 'string' && inputIds.has(id) && !used.has(id)) {
      used.add(id);
      return row;
    }
    const { [RECORD_ID]: _dropped, ...rest } = row;
    return rest;
  });
}

function aborted(signal: AbortSignal): unknown {
  return signal.reason instanceof Error ? signal.reason : new DOMException('The run was stopped', 'AbortError');
}

let sharedPool: SandboxPool | null = null;

/** `pool`: tests and callers that want their own workers; by default one pool per process, made on first use. */
export function createCodeRunner(options: { pool?: SandboxPool } = {}): PerRecordRunner {
  const pool = () => options.pool ?? (sharedPool ??= new SandboxPool());
  return {
    stepType: 'code',
    kind: 'per-record',
    output: 'replace',
    // Only running tells which columns the code makes; the engine reads them off the written dataset.
    outputColumns(inputs, params, vars) {
      expectInputs(inputs, 1, 1);
      codePlan(params, vars);
      return [];
    },
    batchSize: () => CODE_BATCH_SIZE,
    async processBatch(ctx: RunContext, records, params) {
      const plan = codePlan(params, ctx.vars);
      if (ctx.signal.aborted) throw aborted(ctx.signal);
      let result;
      try {
        result = await pool().runBatch({
          code: plan.code,
          mode: plan.mode,
          limits: { timeoutMs: plan.timeoutMs },
          records,
          vars: jsonVars(ctx.vars),
          signal: ctx.signal,
        });
      } catch (err) {
        if (err instanceof SandboxError) throw stepFailure(err, records);
        throw err;
      }
      for (const line of result.logs) ctx.log(logLine(line, records));
      if (result.droppedLogLines > 0)
        ctx.log(`${result.droppedLogLines} more console lines of this batch were not kept (at most ${result.logs.length} per batch)`);
      return { rows: withIdentity(result.records, records) };
    },
  };
}

export const codeRunner = createCodeRunner();
