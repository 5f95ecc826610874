import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { api, testSettings } from '../../test/handlers';
import { currentLocation, renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';

describe('settings page', () => {
  beforeEach(() => localStorage.setItem('accessToken', 'good'));

  it('loads the saved settings and sends only what changed', async () => {
    let sent: unknown = null;
    server.use(
      http.patch(api('/users/me/settings'), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ ...testSettings, display_name: 'Ada L.', message: 'Settings saved.' });
      }),
    );
    const { user, store } = renderApp({ route: '/settings' });
    const name = await screen.findByLabelText('Display name');
    expect(name).toHaveValue('Ada Lovelace');
    expect(screen.getByLabelText('Language')).toHaveValue('en');
    expect(screen.getByLabelText('Theme')).toHaveValue('light');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.clear(name);
    await user.type(name, 'Ada L.');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settings saved.')).toBeInTheDocument();
    expect(sent).toEqual({ display_name: 'Ada L.' });
    expect(store.getState().auth.user?.name).toBe('Ada L.');
  });

  it('saving Chinese remembers NEXT_LOCALE=cn and switches to /cn', async () => {
    server.use(http.patch(api('/users/me/settings'), () => HttpResponse.json({ ...testSettings, locale: 'cn', message: '设置已保存。' })));
    const { user } = renderApp({ route: '/settings' });
    await user.selectOptions(await screen.findByLabelText('Language'), 'cn');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(currentLocation()).toBe('/cn/settings'));
    expect(document.cookie).toContain('NEXT_LOCALE=cn');
    expect(await screen.findByRole('heading', { name: '设置', level: 1 })).toBeInTheDocument();
  });

  it('does not send an empty display name', async () => {
    const { user } = renderApp({ route: '/settings' });
    await user.clear(await screen.findByLabelText('Display name'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Enter a display name.')).toBeInTheDocument();
  });
});
