import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import { App } from './app/App';
import { makeStore } from './app/store';
import { loadCatalog } from './i18n/catalogs';
import { isUnderCnPrefix } from './i18n/locales';
import { UiProvider } from './theme/UiProvider';

// A Chinese page's catalog starts downloading now, alongside React's start-up.
if (isUnderCnPrefix(window.location.pathname)) void loadCatalog('cn');

const store = makeStore();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      <UiProvider>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </UiProvider>
    </Provider>
  </StrictMode>,
);
