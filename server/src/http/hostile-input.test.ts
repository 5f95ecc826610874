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
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/workflow-history/commits', headers: auth, payload: { workflow_id: workflowId, [field]: value } });
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
