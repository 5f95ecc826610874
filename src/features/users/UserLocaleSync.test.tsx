import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { api, testSettings, testUser } from '../../test/handlers';
import { currentLocation, renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';
// Loaded with the test file, not inside the first test: the routes render these pages through
// React.lazy, and on CI's cold Jest cache compiling them there took the first test past 5 s.
import '../../components/AppShell';
import '../auth/LoginPage';
import '../home/HomePage';
import './SettingsPage';

function accountLanguage(locale: 'en' | 'cn') {
  server.use(http.get(api('/users/me'), () => HttpResponse.json({ ...testUser, locale })));
}

describe("the account's saved language", () => {
  // Over Jest's 5 s at worst: the file's first render of the whole app, a sign-in typed in, then the
  // Chinese texts loaded and the home page drawn (1.5 s alone, past 5 s once in CI beside the other projects).
  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 2.7 s here beside the other worker (2026-11-28).
  it('wins after sign-in on a new (English) browser', async () => {
    accountLanguage('cn');
    server.use(http.post(api('/auth/login'), () => HttpResponse.json({ access_token: 'tok', token_type: 'bearer', expires_in: 3600 })));
    const { user } = renderApp({ route: '/login' });
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse{Enter}');
    await waitFor(() => expect(currentLocation()).toBe('/cn'));
    expect(document.cookie).toContain('NEXT_LOCALE=cn');
    expect(await screen.findByRole('heading', { name: /欢迎回来/ })).toBeInTheDocument();
  }, 15_000);

  it('wins on start-up once the user is known, keeping the path and query', async () => {
    accountLanguage('cn');
    localStorage.setItem('accessToken', 'good');
    renderApp({ route: '/settings?x=1' });
    await waitFor(() => expect(currentLocation()).toBe('/cn/settings?x=1'));
    expect(document.cookie).toContain('NEXT_LOCALE=cn');
    expect(await screen.findByRole('heading', { name: '设置', level: 1 })).toBeInTheDocument();
  }, 15_000);

  it('takes an English account out of /cn, over a stored Chinese choice', async () => {
    document.cookie = 'NEXT_LOCALE=cn; path=/';
    localStorage.setItem('accessToken', 'good');
    renderApp({ route: '/cn/settings' });
    await waitFor(() => expect(currentLocation()).toBe('/settings'));
    expect(document.cookie).toContain('NEXT_LOCALE=en');
  });

  it("the header's switcher saves the choice to the account when signed in", async () => {
    let sent: unknown = null;
    server.use(
      http.patch(api('/users/me/settings'), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ ...testSettings, locale: 'cn', message: 'Settings saved.' });
      }),
    );
    localStorage.setItem('accessToken', 'good');
    const { user, store } = renderApp({ route: '/settings' });
    await screen.findByRole('heading', { name: 'Settings', level: 1 });
    // The header's switcher is hidden on narrow screens (jsdom applies that display: none).
    await user.click(screen.getAllByText('中文')[0].closest('button') as HTMLElement);
    await waitFor(() => expect(currentLocation()).toBe('/cn/settings'));
    await waitFor(() => expect(sent).toEqual({ locale: 'cn' }));
    await waitFor(() => expect(store.getState().auth.user?.locale).toBe('cn'));
    expect(document.cookie).toContain('NEXT_LOCALE=cn');
    // The account now says Chinese, so nothing sends the user back to English; the save is quiet.
    expect(currentLocation()).toBe('/cn/settings');
    expect(screen.queryByText('Settings saved.')).not.toBeInTheDocument();
  });
});
