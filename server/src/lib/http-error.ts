import type { MessageValues } from '../i18n/messages';

/**
 * An error of the HTTP layer itself (plugins, route handlers, header parsing): a status and a
 * catalog key for the `detail` the client shows. Services, repositories and the engine never throw
 * it: they throw the domain errors of `lib/errors.ts`, which the error plugin maps to statuses.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly messageKey: string,
    readonly values: MessageValues = {},
  ) {
    super(messageKey);
    this.name = 'HttpError';
  }
}
