import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { setNavigator } from '../app/navigation';
import { loadAllTexts } from '../i18n/catalogs';
import { setCurrentLocale } from '../i18n/currentIntl';
import { server } from './server';

// findBy*/waitFor give up after 3 s instead of Testing Library's 1 s: a file's first render of a
// page loads that page's lazy chunk and renders it for the first time, which takes 1–2.5 s in jsdom
// on a 2-core machine running the other projects at the same time. A wait ends as soon as it holds.
configure({ asyncUtilTimeout: 3_000 });

// Browser APIs Chakra / Ark UI / next-themes use that jsdom lacks.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = ResizeObserverStub;
}
// Ark UI's press tracking makes a PointerEvent when a pressed control (a switch) loses focus, e.g.
// to a dialog it opened; jsdom has none.
if (!('PointerEvent' in window)) {
  class PointerEventStub extends MouseEvent {
    readonly pointerId: number;
    readonly pointerType: string;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 0;
      this.pointerType = init.pointerType ?? 'mouse';
    }
  }
  (window as unknown as { PointerEvent: unknown }).PointerEvent = PointerEventStub;
}
window.scrollTo = () => undefined;
Element.prototype.scrollTo = () => undefined;
Element.prototype.scrollIntoView = () => undefined;
// structuredClone is provided by jest-fixed-jsdom (chakra-ui #9201 otherwise).

function clearCookies() {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0].trim();
    if (name) document.cookie = `${name}=; path=/; max-age=0`;
  }
}

// Any request without a handler is a test bug: fail instead of silently hitting nothing.
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
// The Chinese catalog, and the texts of the pages beyond sign-in, are fetched on demand in the
// app (catalogs.ts); screens under test render at once in either language, as they do in the
// app once they have arrived.
beforeAll(() => Promise.all([loadAllTexts('en'), loadAllTexts('cn')]));
afterEach(() => {
  server.resetHandlers();
  localStorage.clear();
  clearCookies();
  setCurrentLocale('en');
  setNavigator(null);
});
afterAll(() => server.close());
