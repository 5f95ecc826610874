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
