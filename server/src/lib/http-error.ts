import type { Modal } from '../http/common.schemas';
import type { MessageValues } from '../i18n/messages';

/**
 * An error a service throws on purpose: the status and a catalog key for the `detail` the client
 * shows; the error handler translates it into the caller's language.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly messageKey: string,
    readonly values: MessageValues = {},
    readonly modal?: Modal,
  ) {
    super(messageKey);
    this.name = 'HttpError';
  }
}

export const notFound = (what = 'server.errors.notFound') => new HttpError(404, what);
export const badRequest = (key: string, values?: MessageValues) => new HttpError(400, key, values);
export const conflict = (key: string, values?: MessageValues) => new HttpError(409, key, values);
export const unauthorized = (key = 'server.errors.unauthorized') => new HttpError(401, key);
export const forbidden = (key = 'server.errors.forbidden') => new HttpError(403, key);

/** One located problem with a request, as a catalog key; becomes `{msg, loc}` in the caller's language. */
export interface Problem {
  key: string;
  values?: MessageValues;
  loc: (string | number)[];
}

/**
 * Rules a schema cannot express (a cycle in the step graph, a param that does not fit its step
 * type): answered like schema validation, 422 `{errors: [{msg, loc}]}`, so the client shows them
 * the same way.
 */
export class ValidationFailed extends Error {
  readonly statusCode = 422;
  constructor(readonly problems: Problem[]) {
    super(problems.map((p) => p.key).join(', '));
    this.name = 'ValidationFailed';
  }
}
