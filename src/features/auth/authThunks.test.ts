import { http, HttpResponse } from 'msw';
import { setNavigator } from '../../app/navigation';
import { makeStore } from '../../app/store';
import { setCurrentLocale } from '../../i18n/currentIntl';
import { api, testUser } from '../../test/handlers';
import { server } from '../../test/server';
import { usersApi } from '../users/usersApi';
import { initialAuthState } from './authSlice';
import { initializeAuth, login, logout } from './authThunks';

function countRequests(method: string, path: string) {
  const counter = { count: 0 };
  server.events.on('request:start', ({ request }) => {
    if (request.method === method && new URL(request.url).pathname === `/api/v1${path}`) counter.count += 1;
  });
  return counter;
}

afterEach(() => server.events.removeAllListeners());

describe('auth state', () => {
  it('starts loading, signed out and not initialised', () => {
    expect(makeStore().getState().auth).toEqual({ user: null, loading: true, isAuthenticated: false, initialized: false, error: null });
    expect(initialAuthState).toEqual(makeStore().getState().auth);
  });
});

describe('initializeAuth (spec §4)', () => {
  it('without a stored token: initialised, not loading, not authenticated, no call', async () => {
    const me = countRequests('GET', '/users/me');
    const store = makeStore();
    await store.dispatch(initializeAuth());
    expect(store.getState().auth).toEqual({ user: null, loading: false, isAuthenticated: false, initialized: true, error: null });
    expect(me.count).toBe(0);
  });

  it('with a token that works: the user is set and authenticated', async () => {
    localStorage.setItem('accessToken', 'good');
    const store = makeStore();
    await store.dispatch(initializeAuth());
    expect(store.getState().auth).toEqual({ user: testUser, loading: false, isAuthenticated: true, initialized: true, error: null });
    expect(localStorage.getItem('accessToken')).toBe('good');
  });

  it('with a token that fails: "Failed to load user", token removed, signed out', async () => {
    localStorage.setItem('accessToken', 'broken');
    server.use(http.get(api('/users/me'), () => HttpResponse.json({ detail: 'Database is down' }, { status: 500 })));
    const store = makeStore();
    await store.dispatch(initializeAuth());
    expect(store.getState().auth).toEqual({ user: null, loading: false, isAuthenticated: false, initialized: true, error: 'Failed to load user' });
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(store.getState().notices.messages.map((m) => [m.type, m.text])).toEqual([
      ['error', 'Database is down'],
      ['error', 'Failed to load user'],
    ]);
  });

  it('shows "Failed to load user" in Chinese on Chinese pages', async () => {
    setCurrentLocale('cn');
    localStorage.setItem('accessToken', 'broken');
    server.use(http.get(api('/users/me'), () => HttpResponse.error()));
    const store = makeStore();
    await store.dispatch(initializeAuth());
    expect(store.getState().auth.error).toBe('Failed to load user');
    expect(store.getState().notices.messages.map((m) => m.text)).toContain('无法加载用户信息');
  });

  it('runs only once per store, even when dispatched again while in flight', async () => {
    localStorage.setItem('accessToken', 'good');
    const me = countRequests('GET', '/users/me');
    const store = makeStore();
    const first = store.dispatch(initializeAuth());
    const second = store.dispatch(initializeAuth());
    await Promise.all([first, second]);
    await store.dispatch(initializeAuth());
    expect(me.count).toBe(1);
    expect((await second).meta.requestStatus).toBe('rejected');
    expect(store.getState().auth.isAuthenticated).toBe(true);
  });

  it('runs again for a new store', async () => {
    localStorage.setItem('accessToken', 'good');
    const me = countRequests('GET', '/users/me');
    await makeStore().dispatch(initializeAuth());
    await makeStore().dispatch(initializeAuth());
    expect(me.count).toBe(2);
  });
});

describe('login', () => {
  it('stores the token, loads the user and is authenticated', async () => {
    server.use(http.post(api('/auth/login'), () => HttpResponse.json({ access_token: 'fresh', token_type: 'bearer', expires_in: 3600 })));
    const store = makeStore();
    const user = await store.dispatch(login({ email: 'ada@example.com', password: 'secret-pass' })).unwrap();
    expect(user).toEqual(testUser);
    expect(localStorage.getItem('accessToken')).toBe('fresh');
    expect(store.getState().auth).toMatchObject({ user: testUser, isAuthenticated: true, initialized: true, loading: false });
    // The token is not kept in the Redux store.
    expect(JSON.stringify(store.getState())).not.toContain('fresh');
  });

  it('wrong credentials: rejected, no token, not authenticated', async () => {
    server.use(http.post(api('/auth/login'), () => HttpResponse.json({ detail: 'Incorrect email or password.' }, { status: 401 })));
    const store = makeStore();
    await expect(store.dispatch(login({ email: 'ada@example.com', password: 'wrong' })).unwrap()).rejects.toBeDefined();
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(store.getState().auth.isAuthenticated).toBe(false);
  });
});

describe('logout (spec §4)', () => {
  async function signedInStore() {
    localStorage.setItem('accessToken', 'good');
    const store = makeStore();
    await store.dispatch(initializeAuth());
    await store.dispatch(usersApi.endpoints.getSettings.initiate());
    return store;
  }

  it('calls the endpoint, removes the token, clears the user store and goes to /login', async () => {
    const navigate = jest.fn();
    setNavigator(navigate);
    const logoutCalls = countRequests('POST', '/auth/logout');
    const store = await signedInStore();
    await store.dispatch(logout()).unwrap();
    expect(logoutCalls.count).toBe(1);
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(store.getState().auth).toMatchObject({ user: null, isAuthenticated: false });
    expect(store.getState().api.queries).toEqual({});
    expect(navigate).toHaveBeenCalledWith('/login', undefined);
  });

  it('sends the bearer token to the logout endpoint', async () => {
    setNavigator(jest.fn());
    let auth: string | null = null;
    server.use(
      http.post(api('/auth/logout'), ({ request }) => {
        auth = request.headers.get('Authorization');
        return HttpResponse.json({ message: 'Signed out.' });
      }),
    );
    const store = await signedInStore();
    await store.dispatch(logout());
    expect(auth).toBe('Bearer good');
  });

  it('when the call fails: still signs out and goes to /login, then re-throws', async () => {
    const navigate = jest.fn();
    setNavigator(navigate);
    server.use(http.post(api('/auth/logout'), () => HttpResponse.error()));
    const store = await signedInStore();
    await expect(store.dispatch(logout()).unwrap()).rejects.toBeDefined();
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(store.getState().auth).toMatchObject({ user: null, isAuthenticated: false, initialized: true });
    expect(store.getState().api.queries).toEqual({});
    expect(navigate).toHaveBeenCalledWith('/login', undefined);
  });

  it('goes to /cn/login from Chinese pages', async () => {
    const navigate = jest.fn();
    setNavigator(navigate);
    setCurrentLocale('cn');
    const store = await signedInStore();
    await store.dispatch(logout());
    expect(navigate).toHaveBeenCalledWith('/cn/login', undefined);
  });
});
