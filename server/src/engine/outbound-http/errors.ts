/**
 * Why an outbound call failed, as a kind the engine can act on (retry a `network` error, never a
 * `blocked_address`) plus a catalog key (`server.http.*`) and the values its text needs. Like the
 * expression errors, the engine knows no language: whoever shows the problem renders the key.
 */
export type OutboundHttpErrorKind = 'blocked_address' | 'bad_url' | 'bad_request' | 'timeout' | 'aborted' | 'too_large' | 'too_many_redirects' | 'network';

export type OutboundHttpErrorValues = Record<string, string | number>;

const keys: Record<OutboundHttpErrorKind, string> = {
  blocked_address: 'server.http.blockedAddress',
  bad_url: 'server.http.badUrl',
  bad_request: 'server.http.badRequest',
  timeout: 'server.http.timeout',
  aborted: 'server.http.aborted',
  too_large: 'server.http.tooLarge',
  too_many_redirects: 'server.http.tooManyRedirects',
  network: 'server.http.network',
};

export class OutboundHttpError extends Error {
  readonly key: string;

  constructor(
    readonly kind: OutboundHttpErrorKind,
    readonly values: OutboundHttpErrorValues = {},
    options?: { cause?: unknown },
  ) {
    super(`${kind} ${JSON.stringify(values)}`, options);
    this.name = 'OutboundHttpError';
    this.key = keys[kind];
  }
}

export const outboundHttpErrorKeys: Readonly<Record<OutboundHttpErrorKind, string>> = keys;
