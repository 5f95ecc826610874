/**
 * Why a batch of the code step failed, as a catalog key (`server.sandbox.<code in camelCase>`) plus the values
 * its text needs. Like `ExpressionError`, the engine knows no language and no HTTP: whoever shows
 * the failure (the run's log, an API answer) renders the key in the reader's language.
 *
 * `recordIndex` is the failing record's position (the batch's `firstRecordIndex` plus its place in
 * the batch) when one record is to blame; `line` is the line of the user's code (1-based) when
 * QuickJS reported one.
 */
export type SandboxErrorCode =
  /** The code does not parse. */
  | 'syntax'
  /** The user's code threw (its own `throw`, a TypeError, …). */
  | 'thrown'
  /** The batch ran past its time limit. */
  | 'timeout'
  /** The batch needed more memory than its limit. */
  | 'memory'
  /** Recursion went deeper than the stack limit. */
  | 'stack'
  /** The results (or the console lines) of the batch are bigger than allowed. */
  | 'output_too_large'
  /** A result holds something JSON cannot carry (a function, a cycle, NaN, a BigInt, …). */
  | 'not_json'
  /** A result is neither a record (plain object), nor null/undefined, nor an array of records. */
  | 'bad_return'
  /** The records and variables handed in are too big for one batch. */
  | 'input_too_large'
  /** The WebAssembly engine itself failed; the batch may be retried. */
  | 'crashed';

export type SandboxErrorValues = Record<string, string | number>;

export class SandboxError extends Error {
  readonly key: string;

  constructor(
    readonly code: SandboxErrorCode,
    readonly values: SandboxErrorValues = {},
    readonly recordIndex?: number,
    readonly line?: number,
  ) {
    super(
      `sandbox ${code}${recordIndex === undefined ? '' : ` at record ${recordIndex}`}${line === undefined ? '' : ` line ${line}`} ${JSON.stringify(values)}`,
    );
    this.name = 'SandboxError';
    this.key = `server.sandbox.${code.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())}`;
  }
}
