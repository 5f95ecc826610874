import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement, ReactNode } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, type InitialEntry } from 'react-router-dom';
import { App } from '../app/App';
import { NavigationBinder } from '../app/NavigationBinder';
import { makeStore, type AppStore, type RootState } from '../app/store';
import { NoticeModal } from '../features/notices/NoticeModal';
import { Toaster } from '../features/notices/Toaster';
import { I18nProvider } from '../i18n/I18nProvider';
import { UiProvider } from '../theme/UiProvider';
import { LocationDisplay } from './LocationDisplay';

interface Options {
  /** Where the router starts: a path, or a location with router state. */
  route?: InitialEntry;
  preloadedState?: Partial<RootState>;
  store?: AppStore;
  /** Passed to userEvent.setup, e.g. { advanceTimers: jest.advanceTimersByTime } with fake timers. */
  userEventOptions?: Parameters<typeof userEvent.setup>[0];
}

function Shell({ store, route, children }: { store: AppStore; route: InitialEntry; children: ReactNode }) {
  return (
    <Provider store={store}>
      <UiProvider>
        <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
      </UiProvider>
    </Provider>
  );
}

/** Renders `ui` with everything a screen needs: a FRESH store, Chakra, router, language, notices. */
export function renderWithProviders(ui: ReactElement, options: Options = {}) {
  const { route = '/', preloadedState, store = makeStore(preloadedState), userEventOptions } = options;
  const result = render(
    <Shell store={store} route={route}>
      <I18nProvider>
        <NavigationBinder />
        {ui}
        <LocationDisplay />
        <Toaster />
        <NoticeModal />
      </I18nProvider>
    </Shell>,
  );
  return { store, user: userEvent.setup(userEventOptions), ...result };
}

/** Renders the whole application (routes, session start-up, notices) at `route`. */
export function renderApp(options: Options = {}) {
  const { route = '/', preloadedState, store = makeStore(preloadedState), userEventOptions } = options;
  const result = render(
    <Shell store={store} route={route}>
      <App />
      <LocationDisplay />
    </Shell>,
  );
  return { store, user: userEvent.setup(userEventOptions), ...result };
}

export const currentLocation = () => screen.getByTestId('location').textContent;

/** A signed-in auth state, for screens behind RequireAuth. */
export function signedInState(user = undefined as RootState['auth']['user'] | undefined): Partial<RootState> {
  return {
    auth: { user: user ?? null, loading: false, isAuthenticated: true, initialized: true, error: null },
  };
}
