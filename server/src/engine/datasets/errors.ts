import { DomainError, ValidationFailed, type Problem } from '../../lib/errors';
import type { MessageValues } from '../../i18n/messages';

/**
 * The dataset layer's own failures. They extend the domain errors of lib/errors.ts, so a route
 * that lets one through answers it in the API's shapes (404 `{detail}`, 422 `{errors}`) with a
 * translated text, and the worker can tell them apart by class.
 */

/** The snapshot is not in the storage (never written, or deleted). */
export class DatasetNotFound extends DomainError {
  constructor(readonly storageKey: string) {
    super('not_found', 'server.datasets.notFound');
    this.name = 'DatasetNotFound';
  }
}

/**
 * A snapshot is already stored under this dataset's key. Snapshots are never overwritten (readers
 * cache what they read of them), so a retry after a write that did reach the storage takes the
 * stored one (`describe` tells its columns and rows) instead of writing it again.
 */
export class DatasetAlreadyStored extends DomainError {
  constructor(readonly storageKey: string) {
    super('conflict', 'server.datasets.alreadyStored');
    this.name = 'DatasetAlreadyStored';
  }
}

/** No record with this `_id` in the dataset. */
export class RecordNotFound extends DomainError {
  constructor(readonly recordId: string) {
    super('not_found', 'server.datasets.recordNotFound');
    this.name = 'RecordNotFound';
  }
}

export type QueryIssueCode = 'unknown_column' | 'bad_value' | 'unsupported_operator' | 'out_of_range';

export interface QueryIssue extends Problem {
  code: QueryIssueCode;
}

/**
 * A records query the dataset cannot answer. `loc` is relative to the query's own fields
 * (`["filters", 0, "value"]`, `["sort", 1, "column"]`, `["columns", 2]`, `["page_size"]`); the
 * route puts where it read them in front (`error.at(['query'])`), since only it knows whether they
 * came from the query string or a body.
 */
export class InvalidRecordsQuery extends ValidationFailed {
  constructor(readonly issues: QueryIssue[]) {
    super(issues);
    this.name = 'InvalidRecordsQuery';
  }

  /** The same problems, located under `prefix` (e.g. `['query']`). */
  at(prefix: (string | number)[]): ValidationFailed {
    return new ValidationFailed(this.issues.map((issue) => ({ ...issue, loc: [...prefix, ...issue.loc] })));
  }
}

export const queryIssue = (code: QueryIssueCode, key: string, loc: (string | number)[], values?: MessageValues): QueryIssue => ({ code, key, loc, values });

/**
 * What a step handed the writer cannot be stored as it says (a value that is not of its column's
 * declared type, a column type rows cannot carry, a name given twice). That is the step's fault,
 * not the user's query: the run engine records it as the step run's failure.
 */
export class InvalidDatasetInput extends DomainError {
  constructor(key: string, values: MessageValues) {
    super('rejected', key, values);
    this.name = 'InvalidDatasetInput';
  }
}
