import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { accountIn, api, testUser } from '../test/handlers';
import { currentLocation, renderApp } from '../test/renderWithProviders';
import { server } from '../test/server';

function setBrowserLanguage(language: string) {
  jest.spyOn(window.navigator, 'language', 'get').mockReturnValue(language);
}

afterEach(() => jest.restoreAllMocks());

describe('route guard', () => {
  it('shows a spinner while the session is checked, then the page', async () => {
    localStorage.setItem('accessToken', 'good');
    renderApp({ route: '/settings' });
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Settings', level: 1 })).toBeInTheDocument();
  });

  it('sends signed-out visitors of a protected page to /login, keeping the language', async () => {
    renderApp({ route: '/cn/settings' });
    await waitFor(() => expect(currentLocation()).toBe('/cn/login'));
    expect(screen.getByRole('heading', { name: '欢迎回来' })).toBeInTheDocument();
  });
});

describe('locale redirect', () => {
  it('moves a Chinese browser without a stored preference to /cn', async () => {
    setBrowserLanguage('zh-CN');
    renderApp({ route: '/login?next=1' });
    await waitFor(() => expect(currentLocation()).toBe('/cn/login?next=1'));
    expect(document.documentElement.lang).toBe('zh-CN');
  });

  it('honours a stored NEXT_LOCALE=en over a Chinese browser', async () => {
    setBrowserLanguage('zh-CN');
    document.cookie = 'NEXT_LOCALE=en; path=/';
    renderApp({ route: '/login' });
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(currentLocation()).toBe('/login');
    expect(document.documentElement.lang).toBe('en');
  });

  it('leaves the home page alone', async () => {
    document.cookie = 'NEXT_LOCALE=cn; path=/';
    renderApp({ route: '/' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Turn raw data into results, one step at a time' })).toBeInTheDocument();
    expect(currentLocation()).toBe('/');
  });

  it('the switcher stores the choice and shows the same page in the other language', async () => {
    const { user } = renderApp({ route: '/login' });
    await user.click(await screen.findByRole('button', { name: '中文' }));
    // Once the Chinese texts are here (at once in tests: they are loaded beforehand).
    await waitFor(() => expect(currentLocation()).toBe('/cn/login'));
    expect(document.cookie).toContain('NEXT_LOCALE=cn');
    await user.click(await screen.findByRole('button', { name: 'English' }));
    await waitFor(() => expect(currentLocation()).toBe('/login'));
    expect(document.cookie).toContain('NEXT_LOCALE=en');
  });
});

describe('home page', () => {
  it('shows the landing page to visitors, with one way in each', async () => {
    renderApp({ route: '/' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Turn raw data into results, one step at a time' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Create account' })).toHaveAttribute('href', '/signup');
    expect(screen.getByRole('heading', { name: 'Enrich every record' })).toBeInTheDocument();
  });

  it('shows the dashboard to signed-in people, navigation built from the area registry', async () => {
    localStorage.setItem('accessToken', 'good');
    // A Chinese account: an English one is moved out of /cn once the app knows it (UserLocaleSync).
    server.use(accountIn('cn'));
    renderApp({ route: '/cn' });
    expect(await screen.findByRole('heading', { name: `欢迎回来，${testUser.name}` })).toBeInTheDocument();
    // The desktop bar (hidden at jsdom's base width, hence `hidden`).
    const nav = screen.getAllByRole('navigation', { hidden: true }).find((el) => el.getAttribute('aria-label') === '主导航')!;
    const links = within(nav).getAllByRole('link', { hidden: true });
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['工作台', '/cn'],
      ['工作流', '/cn/workflows'],
      ['执行记录', '/cn/executions'],
      ['文件', '/cn/files'],
      ['对话', '/cn/conversations'],
      ['作品库', '/cn/gallery'],
      ['账单', '/cn/billing'],
      ['设置', '/cn/settings'],
    ]);
    expect(links[0]).toHaveAttribute('aria-current', 'page');
    expect(screen.getByText(testUser.email)).toBeInTheDocument();
  });

  it('signs out from the user menu', async () => {
    localStorage.setItem('accessToken', 'good');
    const { user, store } = renderApp({ route: '/' });
    await user.click(await screen.findByRole('button', { name: 'Account menu' }));
    expect(await screen.findByRole('menuitem', { name: 'Sign out' })).toBeInTheDocument();
    // By keyboard: Ark's pointer highlighting does not run under jsdom (a real browser clicks fine).
    await waitFor(() => expect(screen.getByRole('menu')).toHaveFocus());
    await user.keyboard('{End}{Enter}');
    await waitFor(() => expect(currentLocation()).toBe('/login'));
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(store.getState().auth.isAuthenticated).toBe(false);
    expect(await screen.findByRole('status')).toHaveTextContent('Signed out.');
  });

  it('forces a sign-in when the stored token no longer works', async () => {
    localStorage.setItem('accessToken', 'expired');
    server.use(http.get(api('/users/me'), () => HttpResponse.json({ detail: 'Not authenticated' }, { status: 401 })));
    const { store } = renderApp({ route: '/settings' });
    await waitFor(() => expect(currentLocation()).toBe('/login'));
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(store.getState().auth.error).toBe('Failed to load user');
    expect(await screen.findByText('Unauthorized. Redirecting to login...')).toBeInTheDocument();
    expect(screen.getByText('Failed to load user')).toBeInTheDocument();
  });
});

describe('not found', () => {
  it.each([
    ['/no/such/page', 'Page not found', 'Go to the home page', '/'],
    ['/cn/no/such/page', '页面不存在', '返回首页', '/cn'],
  ])('%s', async (route, title, linkName, href) => {
    renderApp({ route });
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: linkName })).toHaveAttribute('href', href);
  });
});
