import { http, HttpResponse } from 'msw';
import { makeStore } from '../app/store';
import { authApi } from '../features/auth/authApi';
import { usersApi } from '../features/users/usersApi';
import { setCurrentLocale } from '../i18n/currentIntl';
import { api, testUser } from '../test/handlers';
import { server } from '../test/server';
import { baseApi } from './baseApi';
import { formEncoded } from './formEncoded';

// A multipart call, as the Files area will add: the body must reach the server as FormData.
const uploadApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    uploadProbe: build.mutation<{ ok: boolean }, FormData>({
      query: (body) => ({ url: '/files/', method: 'POST', body }),
    }),
  }),
});

/** Answers `method path` with `body` and keeps the request that arrived. */
function capture(method: 'get' | 'post', path: string, body: object = {}) {
  const seen: { request?: Request; text?: string } = {};
  server.use(
    http[method](api(path), async ({ request }) => {
      seen.request = request.clone();
      seen.text = await request.text();
      return HttpResponse.json(body);
    }),
  );
  return seen;
}

describe('baseQuery', () => {
  it('sends the bearer token on secure calls only when one is stored', async () => {
    const seen = capture('get', '/users/me', testUser);
    const store = makeStore();
    await store.dispatch(usersApi.endpoints.getMe.initiate());
    expect(seen.request!.headers.get('Authorization')).toBeNull();

    localStorage.setItem('accessToken', 'tok-123');
    await store.dispatch(usersApi.endpoints.getMe.initiate(undefined, { forceRefetch: true }));
    expect(seen.request!.headers.get('Authorization')).toBe('Bearer tok-123');
  });

  it('never sends the token on public calls (spec §6)', async () => {
    localStorage.setItem('accessToken', 'tok-123');
    const seen = capture('post', '/auth/password-reset-request', { message: 'Sent.' });
    await makeStore().dispatch(authApi.endpoints.requestPasswordReset.initiate({ email: 'a@b.co' }));
    expect(seen.request!.headers.get('Authorization')).toBeNull();
  });

  it('sends a timestamp-based X-Request-Id, unique per request', async () => {
    const ids: string[] = [];
    server.use(
      http.get(api('/users/me'), ({ request }) => {
        ids.push(request.headers.get('X-Request-Id') ?? '');
        return HttpResponse.json(testUser);
      }),
    );
    const before = Date.now();
    const store = makeStore();
    await store.dispatch(usersApi.endpoints.getMe.initiate());
    await store.dispatch(usersApi.endpoints.getMe.initiate(undefined, { forceRefetch: true }));
    const after = Date.now();
    expect(ids).toHaveLength(2);
    for (const id of ids) {
      const match = /^(\d{13})-[a-z0-9]+$/.exec(id);
      expect(match).not.toBeNull();
      const stamp = Number(match![1]);
      expect(stamp).toBeGreaterThanOrEqual(before);
      expect(stamp).toBeLessThanOrEqual(after);
    }
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('asks for JSON in the page language and uses same-origin credentials', async () => {
    const seen = capture('get', '/users/me', testUser);
    const store = makeStore();
    await store.dispatch(usersApi.endpoints.getMe.initiate());
    expect(seen.request!.headers.get('Accept')).toBe('application/json');
    expect(seen.request!.headers.get('Accept-Language')).toBe('en');
    expect(seen.request!.credentials).toBe('same-origin');

    setCurrentLocale('cn');
    await store.dispatch(usersApi.endpoints.getMe.initiate(undefined, { forceRefetch: true }));
    expect(seen.request!.headers.get('Accept-Language')).toBe('zh-CN');
  });

  it('sends the anti-forgery header from the XSRF-TOKEN cookie when present', async () => {
    const seen = capture('get', '/users/me', testUser);
    const store = makeStore();
    await store.dispatch(usersApi.endpoints.getMe.initiate());
    expect(seen.request!.headers.get('X-XSRF-TOKEN')).toBeNull();

    document.cookie = 'XSRF-TOKEN=xsrf%20value; path=/';
    await store.dispatch(usersApi.endpoints.getMe.initiate(undefined, { forceRefetch: true }));
    expect(seen.request!.headers.get('X-XSRF-TOKEN')).toBe('xsrf value');
  });

  it('form-encodes the login call', async () => {
    const seen = capture('post', '/auth/login', { access_token: 't', token_type: 'bearer', expires_in: 60 });
    await makeStore().dispatch(authApi.endpoints.login.initiate({ username: 'ada@example.com', password: 'p&ss word' }));
    expect(seen.request!.headers.get('Content-Type')).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(new URLSearchParams(seen.text))).toEqual({ username: 'ada@example.com', password: 'p&ss word' });
  });

  it('sends other calls as JSON', async () => {
    const seen = capture('post', '/auth/signup', { user: testUser, message: 'Welcome' });
    await makeStore().dispatch(authApi.endpoints.signup.initiate({ name: 'Ada', email: 'ada@example.com', password: 'long enough' }));
    expect(seen.request!.headers.get('Content-Type')).toBe('application/json');
    expect(JSON.parse(seen.text!)).toEqual({ name: 'Ada', email: 'ada@example.com', password: 'long enough' });
  });

  it('passes FormData through as multipart', async () => {
    const seen = capture('post', '/files/', { ok: true });
    const body = new FormData();
    body.append('file', new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'data.csv');
    body.append('folder_id', 'f-1');
    const result = await makeStore().dispatch(uploadApi.endpoints.uploadProbe.initiate(body));
    expect(result.data).toEqual({ ok: true });
    expect(seen.request!.headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen.text).toContain('filename="data.csv"');
    expect(seen.text).toContain('a,b\n1,2\n');
    expect(seen.text).toContain('f-1');
  });

  it('records a timing entry for every request', async () => {
    capture('get', '/users/me', testUser);
    const store = makeStore();
    const before = Date.now();
    await store.dispatch(usersApi.endpoints.getMe.initiate());
    const [entry] = store.getState().requestTiming.entries;
    expect(entry).toMatchObject({ url: '/users/me', method: 'GET' });
    expect(entry.start).toBeGreaterThanOrEqual(before);
    expect(entry.end).toBeGreaterThanOrEqual(entry.start);
    expect(entry.duration).toBe(entry.end - entry.start);
  });
});

describe('formEncoded', () => {
  it('converts every non-null field to text and drops null and undefined', () => {
    const params = formEncoded({ username: 'a@b.co', password: 'x', attempts: 3, remember: true, scope: null, grant_type: undefined });
    expect(params.toString()).toBe('username=a%40b.co&password=x&attempts=3&remember=true');
  });
});
