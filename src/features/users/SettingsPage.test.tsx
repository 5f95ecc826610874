import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { api, testSettings } from '../../test/handlers';
import { currentLocation, renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import * as catalogs from '../../i18n/catalogs';

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

  it('switches to Chinese only once the Chinese texts have arrived', async () => {
    // Shown at once, a page in a language whose texts are still on their way kept their keys.
    let release: () => void = () => {};
    const arrived = new Promise<void>((resolve) => (release = resolve));
    const load = catalogs.loadCatalog;
    const loading = jest.spyOn(catalogs, 'loadCatalog').mockImplementation((locale) => (locale === 'cn' ? arrived.then(() => load(locale)) : load(locale)));
    try {
      server.use(http.patch(api('/users/me/settings'), () => HttpResponse.json({ ...testSettings, locale: 'cn', message: '设置已保存。' })));
      const { user } = renderApp({ route: '/settings' });
      await user.selectOptions(await screen.findByLabelText('Language'), 'cn');
      await user.click(screen.getByRole('button', { name: 'Save' }));
      // Asked for, and not yet here: the page stays where it is, in English.
      await waitFor(() => expect(loading).toHaveBeenCalledWith('cn'));
      await act(() => Promise.resolve());
      expect(currentLocation()).toBe('/settings');
      expect(screen.getByRole('heading', { name: 'Settings', level: 1 })).toBeInTheDocument();
      release();
      await waitFor(() => expect(currentLocation()).toBe('/cn/settings'));
      expect(await screen.findByRole('heading', { name: '设置', level: 1 })).toBeInTheDocument();
    } finally {
      loading.mockRestore();
    }
  });

  it('does not send an empty display name', async () => {
    const { user } = renderApp({ route: '/settings' });
    await user.clear(await screen.findByLabelText('Display name'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Enter a display name.')).toBeInTheDocument();
  });
});

describe('settings page: own AI model', () => {
  beforeEach(() => localStorage.setItem('accessToken', 'good'));

  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 2.5 s here beside the other worker (2026-11-28).
  it('sends the address, model and key, then shows that a key is kept without showing it', async () => {
    const sent: unknown[] = [];
    let saved = testSettings;
    server.use(
      http.get(api('/users/me/settings'), () => HttpResponse.json(saved)),
      http.patch(api('/users/me/settings'), async ({ request }) => {
        const body = (await request.json()) as { ai_model: { base_url: string | null; model: string } | null };
        sent.push(body);
        saved = {
          ...testSettings,
          ai_model: body.ai_model && { base_url: body.ai_model.base_url, model: body.ai_model.model, provider: 'openai-compatible', has_api_key: true },
        };
        return HttpResponse.json({ ...saved, message: 'Settings saved.' });
      }),
    );
    const { user } = renderApp({ route: '/settings' });
    expect(await screen.findByText(/use this server's model/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save model' }));
    expect(screen.getByText("Enter the model's name.")).toBeInTheDocument();
    expect(sent).toEqual([]);

    await user.type(screen.getByLabelText('API address'), 'http://localhost:11434/v1');
    await user.type(screen.getByLabelText('Model'), 'llama3.1');
    await user.type(screen.getByLabelText('API key'), 'sk-secret');
    await user.click(screen.getByRole('button', { name: 'Save model' }));
    expect(await screen.findByText(/A key is stored/)).toBeInTheDocument();
    expect(sent[0]).toEqual({ ai_model: { base_url: 'http://localhost:11434/v1', model: 'llama3.1', provider: 'openai-compatible', api_key: 'sk-secret' } });
    expect(screen.getByLabelText('API key')).toHaveValue('');
    expect(screen.getByLabelText('Model')).toHaveValue('llama3.1');

    await user.click(screen.getByRole('button', { name: "Use the server's model" }));
    await waitFor(() => expect(sent[1]).toEqual({ ai_model: null }));
    expect(await screen.findByText(/use this server's model/)).toBeInTheDocument();
  }, 15_000);
});
