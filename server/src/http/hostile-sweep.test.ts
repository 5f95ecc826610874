import { createTestApp, logIn, signedInUser, type TestApp } from '../test/test-app';
import { setUserRole } from '../modules/users/set-role';

/**
 * Every API route, taken from the route table (so a route added later is swept too), sent garbage
 * with and without a token: huge and malformed numbers, deep JSON, wrong types, a non-ASCII XSRF
 * cookie, over-long and undecodable path parameters, wrong content types. None may answer a 5xx,
 * and every error must be in the spec's shapes (§8): `{detail}` (with an optional modal) or
 * `{errors: [{msg, loc}]}` with `loc` starting at the request's part (and maybe the field's `label`).
 */
// Over Jest’s 5 s: thousands of garbage requests over every route (5–7 s on a loaded 2-core machine).
jest.setTimeout(60_000);

let t: TestApp;
let account: { email: string; password: string };
let auth: { authorization: string };

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT_MAX: '100000', LOGIN_RATE_LIMIT_PER_ADDRESS_MAX: '100000' });
  const user = await signedInUser(t.app);
  // An admin: role checks run after validation, so only an admin's garbage reaches the services
  // behind the support and admin routes; every other route treats an admin like any user.
  await setUserRole(t.app.db, user.account.email, 'admin');
  account = user.account;
  auth = user.auth;
  const call = async (method: string, url: string, payload?: object) => {
    const res = await t.app.inject({ method: method as 'POST', url: `/api/v1${url}`, headers: auth, payload });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const workflow = await call('POST', '/workflows/', { name: 'Swept' });
  const source = await call('POST', '/workflow-steps/', { workflow_id: workflow.id, step_type: 'import_csv', name: 'Source' });
  const step = await call('POST', '/workflow-steps/', { workflow_id: workflow.id, step_type: 'filter', name: 'Filter', inputs: [source.id] });
  const variable = await call('POST', `/workflows/${workflow.id}/variables`, { name: 'limit', type: 'number', value: 3 });
  const folder = await call('POST', '/files/folders', { name: 'Swept' });
  const boundary = 'sweepboundary';
  const upload = await t.app.inject({
    method: 'POST',
    url: `/api/v1/files/?folder_id=${folder.id}`,
    headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="data.csv"\r\nContent-Type: text/csv\r\n\r\na,b\n1,2\n\r\n--${boundary}--\r\n`,
  });
  const commits = await call('POST', '/workflow-history/commits', { workflow_id: workflow.id });
  real = { workflow: workflow.id, step: step.id, variable: variable.id, file: upload.json().items[0].id, folder: folder.id, commit: commits.items[0].id };
});
afterAll(() => t.close());

interface Attempt {
  what: string;
  url: string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
}

const deepArray = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const deepObject = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const json = { 'content-type': 'application/json' };

/** Values of the wrong type or past every bound, for each field a body may have. */
const garbageValues = [
  '1e400',
  '-1e400',
  '99999999999999999999',
  '-1',
  '1.5',
  '""',
  '"\\u0000"',
  '"\\ud800"',
  '"C:evil"',
  '"../../etc/passwd"',
  '[]',
  '{}',
  'null',
  'true',
  `"${'x'.repeat(20_000)}"`,
  deepArray(3000),
  deepObject(3000),
];

/** Ids of things the sweep's user really owns, so garbage also reaches the services behind 404s. */
interface RealIds {
  workflow: string;
  step: string;
  variable: string;
  file: string;
  folder: string;
  commit: string;
}
let real: RealIds;
const ZERO_ID = '00000000-0000-4000-8000-000000000000';

/** The route's URL with its parameters filled: by real ids where one fits, else `fill`. */
function withParams(routeUrl: string, fill: (name: string) => string): string {
  return routeUrl.replace(/:(\w+)/g, (_all, name: string) => fill(name));
}

function realIdFor(routeUrl: string, name: string): string {
  if (name === 'stepId') return real.step;
  if (name === 'varId') return real.variable;
  if (name === 'fileId') return real.file;
  if (routeUrl.startsWith('/api/v1/workflows/')) return real.workflow;
  if (routeUrl.startsWith('/api/v1/workflow-steps/')) return real.step;
  if (routeUrl.startsWith('/api/v1/files/folders/')) return real.folder;
  if (routeUrl.startsWith('/api/v1/files/')) return real.file;
  if (routeUrl.startsWith('/api/v1/workflow-history/')) return real.commit;
  return 'filter';
}

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  minimum?: number;
  minItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** A plausible value for a field, so that one garbage field at a time gets past the others. */
function sample(schema: JsonSchema | undefined, name = ''): unknown {
  if (!schema) return 'x';
  if (schema.enum) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const first = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (first) return sample(first, name);
  const type = [schema.type].flat()[0];
  if (type === 'string') {
    if (schema.format === 'email') return 'sweep@example.com';
    if (name === 'workflow_id') return real.workflow;
    if (name === 'step_id' || name === 'target_step_id') return real.step;
    if (name === 'folder_id' || name === 'parent_id') return real.folder;
    if (name === 'file_id' || name === 'upload_id') return real.file;
    if (name === 'commit_id') return real.commit;
    return 'x';
  }
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
  if (type === 'boolean') return true;
  if (type === 'array') return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items, name.replace(/s$/, '')));
  if (type === 'object') {
    const value: Record<string, unknown> = {};
    for (const key of schema.required ?? []) value[key] = sample(schema.properties?.[key], key);
    return value;
  }
  return null;
}

/** `{"field": <raw garbage>, ...the rest of a plausible body}` as JSON text. */
function bodyWith(base: Record<string, unknown>, field: string, raw: string): string {
  const rest = Object.fromEntries(Object.entries(base).filter(([key]) => key !== field));
  const tail = JSON.stringify(rest).slice(1);
  return `{${JSON.stringify(field)}:${raw}${tail === '}' ? '}' : `,${tail}`}`;
}

function attemptsFor(routeUrl: string, method: string, bodySchema: JsonSchema | undefined): Attempt[] {
  // Destructive routes get a made-up id: deleting the sweep's own things would only hide later routes.
  const url = withParams(routeUrl, (name) => (method === 'DELETE' ? ZERO_ID : realIdFor(routeUrl, name)));
  const attempts: Attempt[] = [
    { what: 'long path parameter', url: withParams(routeUrl, () => 'x'.repeat(150)) },
    { what: 'undecodable path parameter', url: withParams(routeUrl, () => '%E0%A4%A') },
    { what: 'odd path parameters', url: withParams(routeUrl, () => '..%2F..%2Fetc') },
    { what: 'numeric path parameter', url: withParams(routeUrl, () => '1e309') },
    { what: 'nul in path parameter', url: withParams(routeUrl, () => 'a%00b') },
    { what: 'page=1e309', url: `${url}?page=1e309` },
    { what: 'page_size=1e309', url: `${url}?page_size=1e309` },
    { what: 'page=99999999999999999999', url: `${url}?page=99999999999999999999` },
    { what: 'long search', url: `${url}?q=${'q'.repeat(5000)}` },
    { what: 'negative and fractional pages', url: `${url}?page=-1&page_size=1.5&sort=zzz&order=%FF&folder_id=%00` },
    { what: 'repeated and bracketed query', url: `${url}?page=1&page=2&tag[]=a&published=maybe&inline=%E0%A4%A` },
    { what: 'non-ASCII XSRF cookie', url, headers: { ...json, cookie: 'XSRF-TOKEN=%E2%82%AC', 'x-xsrf-token': 'a' }, payload: '{}' },
    { what: 'mismatched XSRF of equal length', url, headers: { ...json, cookie: 'XSRF-TOKEN=%C3%A9', 'x-xsrf-token': 'ab' }, payload: '{}' },
    { what: 'garbage If-Match', url, headers: { 'if-match': '"\u00ff-1e309"' } },
  ];
  if (method === 'GET' || method === 'HEAD') return attempts;
  attempts.push(
    { what: 'deep array body', url, headers: json, payload: deepArray(5000) },
    { what: 'deep object body', url, headers: json, payload: deepObject(5000) },
    { what: 'non-finite number body', url, headers: json, payload: '1e400' },
    { what: 'string body', url, headers: json, payload: '"text"' },
    { what: 'invalid JSON', url, headers: json, payload: '{"a":' },
    { what: 'empty JSON', url, headers: json, payload: '' },
    { what: 'prototype poisoning', url, headers: json, payload: '{"__proto__":{"admin":true}}' },
    { what: 'wrong content type', url, headers: { 'content-type': 'text/xml' }, payload: '<a/>' },
    { what: 'garbage form', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=%ZZ&page=1e309&username=%E0%A4%A' },
    {
      what: 'broken multipart',
      url,
      headers: { 'content-type': 'multipart/form-data; boundary=zz' },
      payload: '--zz\r\nContent-Disposition: form-data; name="file"; filename="C:evil"\r\n\r\nabc',
    },
    { what: 'octet stream', url, headers: { 'content-type': 'application/octet-stream' }, payload: Buffer.from([0, 255, 1]) },
  );
  const base = (sample(bodySchema ?? { type: 'object' }) ?? {}) as Record<string, unknown>;
  for (const field of Object.keys(bodySchema?.properties ?? {})) {
    for (const value of garbageValues)
      attempts.push({ what: `body.${field}=${value.slice(0, 30)}`, url, headers: json, payload: bodyWith(base, field, value) });
  }
  return attempts;
}

const problems: string[] = [];

function checkAnswer(label: string, status: number, body: string) {
  if (status >= 500) {
    problems.push(`${label}: ${status} ${body.slice(0, 200)}`);
    return;
  }
  if (status < 400) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    problems.push(`${label}: ${status} body is not JSON: ${body.slice(0, 100)}`);
    return;
  }
  const keys = parsed && typeof parsed === 'object' ? Object.keys(parsed).sort().join() : '';
  const detailShape = (keys === 'detail' || keys === 'detail,modal') && typeof (parsed as { detail: unknown }).detail === 'string';
  const errors = (parsed as { errors?: unknown }).errors;
  const errorsShape =
    keys === 'errors' &&
    Array.isArray(errors) &&
    errors.length > 0 &&
    errors.every(
      (e: { msg?: unknown; loc?: unknown; label?: unknown }) =>
        // `label`: the field as the user sees it, when the client cannot name it (decision 0065).
        ['loc,msg', 'label,loc,msg'].includes(Object.keys(e).sort().join()) &&
        (e.label === undefined || typeof e.label === 'string') &&
        typeof e.msg === 'string' &&
        Array.isArray(e.loc) &&
        ['body', 'query', 'path', 'header'].includes(e.loc[0]) &&
        e.loc.every((part: unknown) => typeof part === 'string' || typeof part === 'number'),
    );
  if (!detailShape && !errorsShape) problems.push(`${label}: ${status} not in the spec's shapes: ${body.slice(0, 200)}`);
  if (/FST_|statusCode|stack|xxxxxxxxxx/.test(body)) problems.push(`${label}: ${status} leaks Fastify's body or the path: ${body.slice(0, 200)}`);
}

it('answers every route garbage with a 4xx in the spec shapes, never a 5xx', async () => {
  const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json();
  const routes = t.app.apiRoutes.filter((r) => r.method !== 'OPTIONS');
  expect(routes.length).toBeGreaterThan(40);
  let requests = 0;
  for (const route of routes) {
    const operation = doc.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
    const schema = operation?.requestBody?.content?.['application/json']?.schema as JsonSchema | undefined;
    for (const attempt of attemptsFor(route.url, route.method, schema)) {
      for (const signedIn of [false, true]) {
        const label = `${route.method} ${route.url} ${attempt.what} ${signedIn ? 'signed in' : 'anonymous'}`;
        const answer = t.app.inject({
          method: route.method as 'GET',
          url: attempt.url,
          headers: { ...(signedIn ? auth : {}), ...attempt.headers },
          payload: attempt.payload,
        });
        // A request that never answers is a finding too, not a test that times out.
        let timer: NodeJS.Timeout | undefined;
        const res = await Promise.race([answer, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 10_000)))]);
        clearTimeout(timer);
        requests++;
        if (!res) problems.push(`${label}: no answer within 10 s`);
        else checkAnswer(label, res.statusCode, res.body);
      }
    }
    // Garbage may still sign the sweep out (logout takes no body): sign in again.
    if ((await t.app.inject({ url: '/api/v1/users/me', headers: auth })).statusCode === 401) {
      const again = await logIn(t.app, account.email, account.password);
      if (again.statusCode === 200) auth = { authorization: `Bearer ${again.json().access_token}` };
      else ({ account, auth } = await signedInUser(t.app));
    }
  }
  expect(requests).toBeGreaterThan(1000);

  // What garbage was accepted must not break the things it touched (deep values once did, later).
  for (const [method, url, payload] of [
    ['GET', `/workflows/${real.workflow}`],
    ['PUT', `/workflows/${real.workflow}`, { name: 'Still editable' }],
    ['POST', `/workflows/${real.workflow}/clone`, {}],
    ['GET', `/workflows/${real.workflow}/variables`],
    ['POST', '/workflow-history/commits', { workflow_id: real.workflow }],
    ['GET', '/files/folders/root'],
    ['POST', '/files/bulk-download', { folder_ids: [real.folder] }],
  ] as [string, string, object?][]) {
    const res = await t.app.inject({ method: method as 'GET', url: `/api/v1${url}`, headers: auth, payload });
    if (res.statusCode >= 300) problems.push(`afterwards ${method} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  }
  expect({ count: problems.length, first: problems.slice(0, 40) }).toEqual({ count: 0, first: [] });
});
