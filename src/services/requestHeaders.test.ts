import { http, HttpResponse } from 'msw';
import { makeStore } from '../app/store';
import { requestJson } from '../features/files/transfer';
import { usersApi } from '../features/users/usersApi';
import { setCurrentLocale } from '../i18n/currentIntl';
import { api, testUser } from '../test/handlers';
import { server } from '../test/server';
import { requestHeaders, XSRF_HEADER } from './requestHeaders';

describe('requestHeaders', () => {
  it('carries a request id, JSON Accept and the page language; the token and XSRF echo when present', () => {
    expect(Object.keys(requestHeaders()).sort()).toEqual(['Accept', 'Accept-Language', 'X-Request-Id']);
    localStorage.setItem('accessToken', 'tok-1');
    document.cookie = 'XSRF-TOKEN=x-1; path=/';
    setCurrentLocale('cn');
    const headers = requestHeaders();
    expect(headers).toMatchObject({ Accept: 'application/json', 'Accept-Language': 'zh-CN', Authorization: 'Bearer tok-1', [XSRF_HEADER]: 'x-1' });
    expect(headers['X-Request-Id']).toMatch(/^\d{13}-\w+$/);
    expect(requestHeaders({ authorized: false }).Authorization).toBeUndefined();
  });

  it('is what both RTK Query and the file transfers send', async () => {
    localStorage.setItem('accessToken', 'tok-2');
    document.cookie = 'XSRF-TOKEN=x-2; path=/';
    const seen: Headers[] = [];
    server.use(
      http.get(api('/users/me'), ({ request }) => {
        seen.push(request.headers);
        return HttpResponse.json(testUser);
      }),
    );
    await makeStore().dispatch(usersApi.endpoints.getMe.initiate());
    await requestJson('GET', '/users/me');
    const ours = (headers: Headers) =>
      Object.fromEntries(['accept', 'accept-language', 'authorization', 'x-xsrf-token'].map((name) => [name, headers.get(name)]));
    expect(seen).toHaveLength(2);
    expect(ours(seen[0])).toEqual({ accept: 'application/json', 'accept-language': 'en', authorization: 'Bearer tok-2', 'x-xsrf-token': 'x-2' });
    expect(ours(seen[1])).toEqual(ours(seen[0]));
    expect(seen[0].get('x-request-id')).not.toBe(seen[1].get('x-request-id'));
  });
});
