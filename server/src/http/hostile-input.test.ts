import { createTestApp, signedInUser, type TestApp } from '../test/test-app';

/**
 * Bad input answers a 4xx in the spec's shapes (§8): `{detail}` or `{errors: [{msg, loc}]}` with
 * `loc` naming the request's field, never a 500 and never Fastify's own error body.
 */
let t: TestApp;
let auth: { authorization: string };
let workflowId: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ auth } = await signedInUser(t.app));
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/workflows/', headers: auth, payload: { name: 'Hostile' } });
  workflowId = res.json().id;
});
afterAll(() => t.close());

const isValidationBody = (body: unknown) =>
  typeof body === 'object' &&
  body !== null &&
  Object.keys(body).join() === 'errors' &&
  (body as { errors: unknown[] }).errors.length > 0 &&
  (body as { errors: { msg: unknown; loc: unknown }[] }).errors.every(
    (e) => typeof e.msg === 'string' && Array.isArray(e.loc) && ['body', 'query', 'path', 'header'].includes(e.loc[0] as string),
  );

describe('page numbers', () => {
  const lists = [
    { url: '/api/v1/workflows/public', signedIn: false },
    { url: '/api/v1/workflows/', signedIn: true },
    { url: '/api/v1/files/folders/root', signedIn: true },
    { url: '/api/v1/workflow-step-infos/', signedIn: true },
  ];
  const bad = [
    ['page', '1e309'],
    ['page', '99999999999999999999'],
    ['page_size', '1e309'],
    ['page', '-1'],
    ['page', '1.5'],
    ['page', '10001'],
    ['page_size', '0'],
  ];
  for (const list of lists) {
    it.each(bad)(`${list.url}?%s=%s answers 422 naming the field`, async (field, value) => {
      const res = await t.app.inject({ url: `${list.url}?${field}=${value}`, headers: list.signedIn ? auth : {} });
      expect(res.statusCode).toBe(422);
      expect(isValidationBody(res.json())).toBe(true);
      expect(res.json().errors.map((e: { loc: unknown }) => e.loc)).toContainEqual(['query', field]);
    });
  }

  it.each([
    ['page', 1e30],
    ['page', 1.5],
    ['page', -1],
    ['page_size', 1e30],
  ])('a history page with %s=%s in the body answers 422 naming the field', async (field, value) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/workflow-history/commits',
      headers: auth,
      payload: { workflow_id: workflowId, [field]: value },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.map((e: { loc: unknown }) => e.loc)).toContainEqual(['body', field]);
  });

  it('still pages ordinary requests', async () => {
    const res = await t.app.inject({ url: '/api/v1/workflows/?page=2&page_size=10', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ page: 2, page_size: 10 });
  });
});

describe('deeply nested and non-finite JSON', () => {
  const nested = (levels: number, leaf: unknown = 1) => '['.repeat(levels) + JSON.stringify(leaf) + ']'.repeat(levels);
  const nestedObject = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
  const send = (method: string, url: string, json: string) =>
    t.app.inject({ method: method as 'POST', url: `/api/v1${url}`, headers: { ...auth, 'content-type': 'application/json' }, payload: json });
  const expectRefusedAt = (res: { statusCode: number; json(): unknown }, loc: (string | number)[]) => {
    expect(res.statusCode).toBe(422);
    const body = res.json() as { errors: { msg: string; loc: (string | number)[] }[] };
    expect(isValidationBody(body)).toBe(true);
    expect(body.errors[0].loc.slice(0, loc.length)).toEqual(loc);
  };

  it('refuses a json variable nested 4,000 levels at the door, and the workflow stays editable', async () => {
    const res = await send('POST', `/workflows/${workflowId}/variables`, `{"name":"deep","type":"json","value":${nested(4000)}}`);
    expectRefusedAt(res, ['body', 'value', 0, 0]);
    expect(res.json().errors[0].msg).toMatch(/64/);
    expect((await send('PUT', `/workflows/${workflowId}`, '{"name":"Still fine"}')).statusCode).toBe(200);
    expect((await send('POST', `/workflows/${workflowId}/clone`, '{}')).statusCode).toBe(201);
  });

  it.each([
    ['rename_columns', 'mapping', nestedObject(2000)],
    ['aggregate', 'aggregations', nested(2000, { column: '*', function: 'count', as: 'n' })],
  ])('refuses %s.%s nested 2,000 levels', async (stepType, param, value) => {
    const res = await send('POST', '/workflow-steps/', `{"workflow_id":"${workflowId}","step_type":"${stepType}","param_inputs":{"${param}":${value}}}`);
    expectRefusedAt(res, ['body', 'param_inputs', param]);
  });

  it('accepts a body 64 levels deep and refuses 65', async () => {
    const ok = await send('POST', `/workflows/${workflowId}/variables`, `{"name":"deep64","type":"json","value":${nested(63)}}`);
    expect(ok.statusCode).toBe(201);
    const tooDeep = await send('POST', `/workflows/${workflowId}/variables`, `{"name":"deep65","type":"json","value":${nested(64)}}`);
    expect(tooDeep.statusCode).toBe(422);
  });

  it.each([
    ['{"name":1e400}', ['body', 'name']],
    ['{"name":"x","tags":[-1e999]}', ['body', 'tags', 0]],
  ])('refuses non-finite numbers in %s', async (json, loc) => {
    expectRefusedAt(await send('POST', '/workflows/', json), loc);
  });

  it('still answers malformed and empty JSON with 400 {detail} and __proto__ with 400', async () => {
    for (const json of ['{bad', '', '{"__proto__":{"x":1}}']) {
      const res = await send('POST', '/workflows/', json);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json())).toEqual(['detail']);
    }
  });
});

describe("Fastify's own refusals, in the spec's shapes", () => {
  const long = 'x'.repeat(150);
  const expectDetailOnly = (res: { statusCode: number; body: string; json(): unknown }, status: number) => {
    expect(res.statusCode).toBe(status);
    expect(Object.keys(res.json() as object)).toEqual(['detail']);
    expect(res.body).not.toContain('xxxxxxxxxx');
    expect(res.body).not.toContain('%E0');
    expect(res.body).not.toContain('FST_');
  };

  it.each([
    ['a path parameter over 100 characters', `/api/v1/workflows/${long}`, 414],
    ['bad percent-encoding', '/api/v1/workflows/%E0%A4%A', 400],
  ])('%s: 401 first without a token, then its own status as {detail}', async (_what, url, status) => {
    const anonymous = await t.app.inject({ url });
    expectDetailOnly(anonymous, 401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer');
    expectDetailOnly(await t.app.inject({ url, headers: { authorization: 'Bearer made-up' } }), 401);
    const signedIn = await t.app.inject({ url, headers: { ...auth, 'accept-language': 'zh-CN' } });
    expectDetailOnly(signedIn, status);
    expect((signedIn.json() as { detail: string }).detail).toMatch(/地址/);
  });

  it('answers a public route its own status without asking for a token', async () => {
    expectDetailOnly(await t.app.inject({ method: 'PUT', url: `/api/v1/files/direct-upload/${long}`, payload: 'bytes' }), 414);
    expectDetailOnly(await t.app.inject({ method: 'PUT', url: '/api/v1/files/direct-upload/%E0%A4%A', payload: 'bytes' }), 400);
    expectDetailOnly(await t.app.inject({ url: `/api/v1/nothing/${long}` }), 404);
  });

  it('answers a wrong content type, bad JSON and an oversized body with {detail}', async () => {
    const post = (headers: Record<string, string>, payload: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/workflows/', headers: { ...auth, ...headers }, payload });
    expectDetailOnly(await post({ 'content-type': 'text/xml' }, '<a/>'), 415);
    expectDetailOnly(await post({ 'content-type': 'application/json' }, '{"name":'), 400);
    expectDetailOnly(await post({ 'content-type': 'application/json' }, JSON.stringify({ name: 'y'.repeat(2 * 1024 * 1024) })), 413);
  });
});

describe('validation errors name the request field', () => {
  it('a path parameter under the router limit but over the schema limit: 401 first, then 422 at ["path", "id"]', async () => {
    const url = `/api/v1/workflows/${'x'.repeat(80)}`;
    expect((await t.app.inject({ url })).statusCode).toBe(401);
    const res = await t.app.inject({ url, headers: auth });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ errors: [{ msg: expect.any(String), loc: ['path', 'id'] }] });
  });

  it('query and nested body fields', async () => {
    const query = await t.app.inject({ url: '/api/v1/workflows/?sort=nope', headers: auth });
    expect(query.json().errors.map((e: { loc: unknown }) => e.loc)).toEqual([['query', 'sort']]);
    const body = await t.app.inject({ method: 'POST', url: '/api/v1/workflows/', headers: auth, payload: { name: 'x', tags: ['ok', 5, ''] } });
    expect(body.statusCode).toBe(422);
    for (const e of body.json().errors) expect(e.loc.slice(0, 2)).toEqual(['body', 'tags']);
  });
});

describe('form bodies', () => {
  it('still sign in with a form body, and answer garbage in one with a 4xx in the spec shapes', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'username=%E0%A4%A&password=1e309',
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});

describe('the NUL character, which PostgreSQL cannot store', () => {
  it.each([
    ['a body field', 'POST', '/api/v1/workflows/', { name: 'a\u0000b' }, ['body', 'name']],
    ['a nested body field', 'POST', '/api/v1/files/bulk-download', { file_ids: ['x\u0000'] }, ['body', 'file_ids', 0]],
    ['a query value', 'GET', '/api/v1/workflows/?q=a%00b', undefined, ['query', 'q']],
    ['a path parameter', 'GET', '/api/v1/workflows/a%00b', undefined, ['path', 'id']],
  ])('is refused in %s with 422 at its field', async (_what, method, url, payload, loc) => {
    const res = await t.app.inject({ method: method as 'GET', url, headers: auth, payload });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ errors: [{ msg: 'Must not contain the NUL character.', loc }] });
  });
});

describe('the JSON parser', () => {
  it('still takes JSON with a charset parameter', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/workflows/',
      headers: { ...auth, 'content-type': 'application/json; charset=utf-8' },
      payload: '{"name":"With charset"}',
    });
    expect(res.statusCode).toBe(201);
  });
});
