import { act, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { api } from '../../test/handlers';
import { currentLocation, renderWithProviders } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { authApi } from '../auth/authApi';
import { usersApi } from '../users/usersApi';

// Spec §7 and §8, row by row, through real RTK Query endpoints against msw: each case checks the
// store AND what the user sees (Toaster / NoticeModal).

const signedIn = {
  auth: { user: null, loading: false, isAuthenticated: true, initialized: true, error: null },
};

function answerSettings(response: () => Response) {
  server.use(http.get(api('/users/me/settings'), response));
}

async function loadSettings(store: ReturnType<typeof renderWithProviders>['store']) {
  await act(async () => {
    await store.dispatch(usersApi.endpoints.getSettings.initiate());
  });
}

const texts = (store: ReturnType<typeof renderWithProviders>['store']) => store.getState().notices.messages.map((m) => [m.type, m.text]);

describe('error catalogue (spec §8)', () => {
  it('no response → network error', async () => {
    answerSettings(() => HttpResponse.error());
    const { store } = renderWithProviders(<div />);
    await loadSettings(store);
    expect(texts(store)).toEqual([['error', 'Network error. Please check your connection.']]);
    expect(screen.getByRole('status')).toHaveTextContent('Network error. Please check your connection.');
  });

  it('network error text follows the page language', async () => {
    answerSettings(() => HttpResponse.error());
    const { store } = renderWithProviders(<div />, { route: '/cn/settings' });
    await loadSettings(store);
    expect(texts(store)).toEqual([['error', '网络异常，请检查网络连接。']]);
  });

  it('401 → token removed, signed out, sent to /login, "Unauthorized" shown', async () => {
    localStorage.setItem('accessToken', 'expired');
    answerSettings(() => HttpResponse.json({ detail: 'Not authenticated' }, { status: 401 }));
    const { store } = renderWithProviders(<div />, { route: '/settings', preloadedState: signedIn });
    await loadSettings(store);
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(store.getState().auth).toMatchObject({ isAuthenticated: false, user: null, initialized: true });
    expect(currentLocation()).toBe('/login');
    expect(texts(store)).toEqual([['error', 'Unauthorized. Redirecting to login...']]);
    expect(screen.getByRole('status')).toHaveTextContent('Unauthorized. Redirecting to login...');
  });

  it('401 on a Chinese page → /cn/login with the Chinese text', async () => {
    localStorage.setItem('accessToken', 'expired');
    answerSettings(() => new HttpResponse(null, { status: 401 }));
    const { store } = renderWithProviders(<div />, { route: '/cn/settings', preloadedState: signedIn });
    await loadSettings(store);
    expect(currentLocation()).toBe('/cn/login');
    expect(texts(store)).toEqual([['error', '登录状态已失效，正在跳转到登录页…']]);
  });

  it('401 from the login call itself → the detail, no redirect (wrong credentials)', async () => {
    server.use(http.post(api('/auth/login'), () => HttpResponse.json({ detail: 'Incorrect email or password.' }, { status: 401 })));
    const { store } = renderWithProviders(<div />, { route: '/login?x=1' });
    await act(async () => {
      await store.dispatch(authApi.endpoints.login.initiate({ username: 'a@b.co', password: 'nope' }));
    });
    expect(currentLocation()).toBe('/login?x=1');
    expect(texts(store)).toEqual([['error', 'Incorrect email or password.']]);
  });

  it('error body with modal data → modal with its level, content and buttons', async () => {
    answerSettings(() =>
      HttpResponse.json(
        { detail: 'ignored', modal: { modal_id: 'quota', level: 'warning', content: 'You are out of credits.', buttons: ['Top up', 'Cancel'] } },
        { status: 402 },
      ),
    );
    const { store } = renderWithProviders(<div />);
    await loadSettings(store);
    expect(store.getState().notices.messages).toEqual([
      {
        id: 'quota',
        type: 'warning',
        text: 'You are out of credits.',
        modal: { modal_id: 'quota', level: 'warning', content: 'You are out of credits.', buttons: ['Top up', 'Cancel'] },
      },
    ]);
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Warning')).toBeInTheDocument();
    expect(within(dialog).getByText('You are out of credits.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Top up' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('body with detail → the detail as an error', async () => {
    answerSettings(() => HttpResponse.json({ detail: 'Workflow not found.' }, { status: 404 }));
    const { store } = renderWithProviders(<div />);
    await loadSettings(store);
    expect(texts(store)).toEqual([['error', 'Workflow not found.']]);
    expect(screen.getByRole('status')).toHaveTextContent('Workflow not found.');
  });

  it('body with errors list → one error per item, with its location as the user sees it', async () => {
    answerSettings(() =>
      HttpResponse.json(
        {
          errors: [
            { msg: 'Field required', loc: ['body', 'email'] },
            { msg: 'Invalid body', loc: ['body'] },
            { msg: 'Too long', loc: ['body', 'invitation_code'] },
          ],
        },
        { status: 422 },
      ),
    );
    const { store } = renderWithProviders(<div />);
    await loadSettings(store);
    expect(texts(store)).toEqual([
      ['error', 'Field required (Email)'],
      ['error', 'Invalid body'],
      ['error', 'Too long (Invitation code)'],
    ]);
    const shown = screen.getAllByRole('status').map((el) => el.textContent);
    expect(shown).toEqual(['Field required (Email)', 'Invalid body', 'Too long (Invitation code)']);
  });

  it('body with neither detail nor errors → "Error {status}: An unexpected error occurred."', async () => {
    answerSettings(() => HttpResponse.json({ oops: true }, { status: 500 }));
    const { store } = renderWithProviders(<div />);
    await loadSettings(store);
    expect(texts(store)).toEqual([['error', 'Error 500: An unexpected error occurred.']]);
    expect(screen.getByRole('status')).toHaveTextContent('Error 500: An unexpected error occurred.');
  });

  it('a non-JSON body counts as neither', async () => {
    answerSettings(() => new HttpResponse('<html>Bad gateway</html>', { status: 502, headers: { 'Content-Type': 'text/html' } }));
    const { store } = renderWithProviders(<div />);
    await loadSettings(store);
    expect(texts(store)).toEqual([['error', 'Error 502: An unexpected error occurred.']]);
  });

  it('no body → "Error {status}: {status text}"', async () => {
    answerSettings(() => new HttpResponse(null, { status: 503, statusText: 'Service Unavailable' }));
    const { store } = renderWithProviders(<div />);
    await loadSettings(store);
    expect(texts(store)).toEqual([['error', 'Error 503: Service Unavailable']]);
    expect(screen.getByRole('status')).toHaveTextContent('Error 503: Service Unavailable');
  });

  it('no body and no status text → "Error {status}: Request failed with status code {status}"', async () => {
    // A plain Response: msw's HttpResponse would fill in the standard status text.
    answerSettings(() => new Response(null, { status: 500 }));
    const { store } = renderWithProviders(<div />);
    await loadSettings(store);
    expect(texts(store)).toEqual([['error', 'Error 500: Request failed with status code 500']]);
  });
});

describe('successful responses (spec §7)', () => {
  function answerSave(body: object) {
    server.use(http.patch(api('/users/me/settings'), () => HttpResponse.json(body)));
  }

  async function save(store: ReturnType<typeof renderWithProviders>['store']) {
    await act(async () => {
      await store.dispatch(usersApi.endpoints.updateSettings.initiate({ theme: 'dark' }));
    });
  }

  const settings = { display_name: 'Ada', locale: 'en', theme: 'dark' };

  it('modal data → modal', async () => {
    answerSave({ ...settings, message: 'not shown', modal: { modal_id: 'm-ok', level: 'success', content: 'All set!', buttons: ['OK'] } });
    const { store } = renderWithProviders(<div />);
    await save(store);
    expect(texts(store)).toEqual([['success', 'All set!']]);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Success')).toBeInTheDocument();
    expect(within(dialog).getByText('All set!')).toBeInTheDocument();
  });

  it('a string message → success notice', async () => {
    answerSave({ ...settings, message: 'Settings saved.' });
    const { store } = renderWithProviders(<div />);
    await save(store);
    expect(texts(store)).toEqual([['success', 'Settings saved.']]);
    expect(screen.getByRole('status')).toHaveTextContent('Settings saved.');
  });

  it('each warning → a warning notice', async () => {
    answerSave({ ...settings, message: 'Saved.', warnings: ['First warning', 'Second warning'] });
    const { store } = renderWithProviders(<div />);
    await save(store);
    expect(texts(store)).toEqual([
      ['success', 'Saved.'],
      ['warning', 'First warning'],
      ['warning', 'Second warning'],
    ]);
    expect(screen.getAllByRole('status').map((el) => el.textContent)).toEqual(['Saved.', 'First warning', 'Second warning']);
  });

  it('nothing to say → no notice', async () => {
    answerSave(settings);
    const { store } = renderWithProviders(<div />);
    await save(store);
    expect(store.getState().notices.messages).toEqual([]);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
