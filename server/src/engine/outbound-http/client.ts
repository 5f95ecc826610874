import { lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { Agent, errors as undiciErrors, fetch as undiciFetch, request as undiciRequest } from 'undici';
import type { Dispatcher } from 'undici';
import { AddressPolicy, bareAddress } from './address-policy';
import { OutboundHttpError } from './errors';

/**
 * The one way steps reach the outside world (HTTP request per record, paginated API sources,
 * webhooks). Every connection goes through an undici Agent whose DNS lookup refuses addresses the
 * policy forbids, so the address checked is the address connected to: a name that answered with a
 * public address to a pre-check and a private one to the connection (DNS rebinding) gets nowhere.
 * Literal IP hosts skip DNS, so they are checked before the request; redirects are followed here,
 * hop by hop, each one checked again.
 */

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface OutboundRequest {
  method?: HttpMethod;
  url: string;
  headers?: Record<string, string>;
  /** Bytes or text as is; any other value is sent as JSON (with Content-Type: application/json unless set). */
  body?: string | Uint8Array | object | null;
  /** The whole exchange, redirects and body included. */
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** The run's cancellation. */
  signal?: AbortSignal;
  /** Follow 3xx answers with a Location (default true); false returns them as they are. */
  followRedirects?: boolean;
  /**
   * Parse a JSON answer here (default true). False hands over the bytes (`json` false) for the
   * caller to parse where it chooses: an answer of up to `maxResponseBytes` parsed on the JavaScript
   * thread holds up every other request of the process meanwhile (import_http_json parses large
   * pages in a worker thread, decision 0070).
   */
  parseJson?: boolean;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed when the Content-Type is JSON (application/json, …+json) and the text parses; the bytes otherwise. */
  body: unknown;
  /** True when `body` is parsed JSON. */
  json: boolean;
  /** The address after redirects. */
  url: string;
  /** How many redirects were followed. */
  redirects: number;
}

export type DnsLookup = (hostname: string) => Promise<LookupAddress[]>;

export interface OutboundHttpClientOptions {
  policy: AddressPolicy;
  /** Name resolution; tests inject answers here. Defaults to the system resolver (getaddrinfo). */
  lookup?: DnsLookup;
  maxRedirects?: number;
  defaultTimeoutMs?: number;
  defaultMaxResponseBytes?: number;
  userAgent?: string;
}

export const limits = {
  maxUrlLength: 8192,
  maxHeaders: 100,
  maxHeaderValueLength: 8192,
  maxRequestHeaderBytes: 32 * 1024,
  /** Largest response head undici accepts. */
  maxResponseHeaderBytes: 64 * 1024,
  maxRequestBodyBytes: 10 * 1024 * 1024,
  maxTimeoutMs: 10 * 60 * 1000,
} as const;

const defaultDnsLookup: DnsLookup = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

/** Headers a step may not set: they belong to the connection, and Host would let a URL say one thing and send another. */
const reservedHeaders = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'keep-alive',
  'expect',
  'proxy-authorization',
  'proxy-connection',
]);
/** Dropped when a redirect leaves the origin, as browsers do: credentials are for the host they were written for. */
const credentialHeaders = ['authorization', 'cookie', 'proxy-authorization'];
const tokenPattern = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export interface OutboundHttpClient {
  request(request: OutboundRequest): Promise<OutboundResponse>;
  close(): Promise<void>;
}

export function createOutboundHttpClient(options: OutboundHttpClientOptions): OutboundHttpClient {
  const { policy } = options;
  const resolve = options.lookup ?? defaultDnsLookup;
  const maxRedirects = options.maxRedirects ?? 5;
  const defaultTimeoutMs = options.defaultTimeoutMs ?? 30_000;
  const defaultMaxResponseBytes = options.defaultMaxResponseBytes ?? 10 * 1024 * 1024;

  const agent = checkedAgent(policy, resolve);

  async function request(req: OutboundRequest): Promise<OutboundResponse> {
    const timeoutMs = Math.min(req.timeoutMs ?? defaultTimeoutMs, limits.maxTimeoutMs);
    const maxBytes = req.maxResponseBytes ?? defaultMaxResponseBytes;
    // Checked before any timer or listener exists, so a bad request leaves nothing behind.
    let method: HttpMethod = req.method ?? 'GET';
    let url = checkUrl(req.url);
    let headers = checkHeaders(req.headers ?? {}, options.userAgent);
    let body = encodeBody(req.body, headers);
    if (req.signal?.aborted) throw new OutboundHttpError('aborted');
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    const failure = (err: unknown, url: URL): OutboundHttpError => {
      if (timedOut) return new OutboundHttpError('timeout', { host: url.hostname, seconds: Math.round(timeoutMs / 100) / 10 }, { cause: err });
      if (req.signal?.aborted) return new OutboundHttpError('aborted', {}, { cause: err });
      if (err instanceof OutboundHttpError) return err;
      if (err instanceof undiciErrors.HeadersOverflowError)
        return new OutboundHttpError('too_large', { host: url.hostname, limit: limits.maxResponseHeaderBytes }, { cause: err });
      const code = (err as { code?: string }).code ?? (err as Error).name;
      return new OutboundHttpError('network', { host: url.hostname, reason: String(code) }, { cause: err });
    };

    try {
      for (let redirects = 0; ; redirects++) {
        checkLiteralAddress(url, policy);
        let response: Dispatcher.ResponseData;
        try {
          response = await undiciRequest(url, { dispatcher: agent, method, headers, body, signal: controller.signal, maxRedirections: 0 });
        } catch (err) {
          throw failure(err, url);
        }
        const location = response.headers.location;
        const isRedirect = [301, 302, 303, 307, 308].includes(response.statusCode) && typeof location === 'string' && req.followRedirects !== false;
        if (!isRedirect) {
          let bytes: Buffer;
          try {
            bytes = await readCapped(response, maxBytes, url);
          } catch (err) {
            throw failure(err, url);
          }
          return shape(response, bytes, url, redirects, req.parseJson !== false);
        }
        await response.body.dump().catch(() => undefined);
        if (redirects >= maxRedirects) throw new OutboundHttpError('too_many_redirects', { host: url.hostname, limit: maxRedirects });
        const next = checkUrl(location, url);
        // 303, and 301/302 after a POST, turn into a GET without a body (what browsers and fetch do).
        if (response.statusCode === 303 ? method !== 'HEAD' : [301, 302].includes(response.statusCode) && method === 'POST') {
          method = 'GET';
          body = undefined;
          headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith('content-')));
        }
        if (next.origin !== url.origin) headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !credentialHeaders.includes(name)));
        url = next;
      }
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
    }
  }

  return { request, close: () => agent.close() };
}

/**
 * An undici Agent whose DNS lookup refuses addresses the policy forbids: the address checked is
 * the address connected to (no DNS-rebinding window).
 */
function checkedAgent(policy: AddressPolicy, resolve: DnsLookup): Agent {
  const checkedLookup: LookupFunction = (hostname, lookupOptions, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const refused = addresses.find((a) => !policy.allows(a.address, hostname));
        if (refused) return callback(new OutboundHttpError('blocked_address', { host: hostname, address: bareAddress(refused.address) }), '');
        if (addresses.length === 0) return callback(new OutboundHttpError('network', { host: hostname, reason: 'ENOTFOUND' }), '');
        if (lookupOptions.all) return callback(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
  return new Agent({
    connect: { lookup: checkedLookup },
    maxHeaderSize: limits.maxResponseHeaderBytes,
    // The caller's own timer bounds the whole exchange; undici's would only cut in later.
    headersTimeout: limits.maxTimeoutMs,
    bodyTimeout: limits.maxTimeoutMs,
  });
}

/**
 * A `fetch` for clients that bring their own HTTP code (the AI SDK, for a model URL a user typed
 * in): the same address policy as steps, checked at connect and on literal IPs; redirects are
 * refused rather than followed, since a redirect to a literal address would skip the lookup.
 */
export function createGuardedFetch(options: { policy: AddressPolicy; lookup?: DnsLookup }): typeof fetch {
  const agent = checkedAgent(options.policy, options.lookup ?? defaultDnsLookup);
  return async (input, init) => {
    const url = checkUrl(input instanceof Request ? input.url : String(input));
    checkLiteralAddress(url, options.policy);
    return (await undiciFetch(url, { ...(init as object), redirect: 'error', dispatcher: agent } as Parameters<typeof undiciFetch>[1])) as unknown as Response;
  };
}

/** A step's URL, parsed the way the connection will read it (WHATWG: 2130706433, 0x7f.1 and 0177.0.0.1 all become 127.0.0.1). */
export function checkUrl(raw: string, base?: URL): URL {
  if (typeof raw !== 'string' || raw.length > limits.maxUrlLength) throw new OutboundHttpError('bad_url', { reason: 'length', limit: limits.maxUrlLength });
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new OutboundHttpError('bad_url', { reason: 'syntax' });
  }
  if (url.href.length > limits.maxUrlLength) throw new OutboundHttpError('bad_url', { reason: 'length', limit: limits.maxUrlLength });
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundHttpError('bad_url', { reason: 'scheme' });
  // Credentials in the URL would be sent to every hop and logged with it; headers are the place for them.
  if (url.username || url.password) throw new OutboundHttpError('bad_url', { reason: 'credentials' });
  if (!url.hostname) throw new OutboundHttpError('bad_url', { reason: 'syntax' });
  return url;
}

/** Connections to a literal IP do not go through DNS, so the policy is applied to the URL itself. */
function checkLiteralAddress(url: URL, policy: AddressPolicy): void {
  const host = bareAddress(url.hostname);
  if (isIP(host) && !policy.allows(host, host)) throw new OutboundHttpError('blocked_address', { host, address: host });
}

function checkHeaders(given: Record<string, string>, userAgent: string | undefined): Record<string, string> {
  const entries = Object.entries(given);
  if (entries.length > limits.maxHeaders) throw new OutboundHttpError('bad_request', { reason: 'headers', limit: limits.maxHeaders });
  const headers: Record<string, string> = {};
  let total = 0;
  for (const [rawName, value] of entries) {
    const name = rawName.toLowerCase();
    if (!tokenPattern.test(name) || reservedHeaders.has(name)) throw new OutboundHttpError('bad_request', { reason: 'header', header: rawName.slice(0, 64) });
    const text = String(value);
    if (text.length > limits.maxHeaderValueLength || /[\r\n\0]/.test(text))
      throw new OutboundHttpError('bad_request', { reason: 'header', header: rawName.slice(0, 64) });
    total += name.length + text.length + 4;
    headers[name] = text;
  }
  if (total > limits.maxRequestHeaderBytes) throw new OutboundHttpError('bad_request', { reason: 'headers', limit: limits.maxRequestHeaderBytes });
  if (userAgent && !headers['user-agent']) headers['user-agent'] = userAgent;
  return headers;
}

function encodeBody(body: OutboundRequest['body'], headers: Record<string, string>): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  let encoded: string | Uint8Array;
  if (typeof body === 'string' || body instanceof Uint8Array) encoded = body;
  else {
    encoded = JSON.stringify(body);
    headers['content-type'] ??= 'application/json';
  }
  const size = typeof encoded === 'string' ? Buffer.byteLength(encoded) : encoded.byteLength;
  if (size > limits.maxRequestBodyBytes) throw new OutboundHttpError('bad_request', { reason: 'body', limit: limits.maxRequestBodyBytes });
  return encoded;
}

async function readCapped(response: Dispatcher.ResponseData, maxBytes: number, url: URL): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  const tooLarge = () => {
    // Closing the connection is the point; the error it raises on the stream is ours to ignore.
    response.body.on('error', () => undefined);
    response.body.destroy();
    return new OutboundHttpError('too_large', { host: url.hostname, limit: maxBytes });
  };
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    const buffer = chunk as Buffer;
    size += buffer.byteLength;
    if (size > maxBytes) throw tooLarge();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** application/json or …+json, whatever its parameters. */
export function isJsonContentType(header: string | undefined): boolean {
  const type = (header ?? '').split(';')[0].trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

function shape(response: Dispatcher.ResponseData, bytes: Buffer, url: URL, redirects: number, parseJson: boolean): OutboundResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  if (parseJson && isJsonContentType(headers['content-type']) && bytes.length > 0) {
    try {
      return { status: response.statusCode, headers, body: JSON.parse(bytes.toString('utf8')) as unknown, json: true, url: url.href, redirects };
    } catch {
      // A server that labels broken text as JSON: hand over the bytes rather than failing the record.
    }
  }
  return { status: response.statusCode, headers, body: bytes, json: false, url: url.href, redirects };
}
