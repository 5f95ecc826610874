import { useE2E } from './support/stack';
import { tour, TOUR_SERVER, TOUR_TIMEOUT_MS } from './support/tour';

// Every screen in Chinese and the dark theme: dark contrast and untranslated texts (support/tour.ts
// says why two passes).
const e2e = useE2E(TOUR_SERVER);

e2e.test('every screen in Chinese, dark: readable, translated', () => tour(e2e, 'cn', 'dark'), TOUR_TIMEOUT_MS);
