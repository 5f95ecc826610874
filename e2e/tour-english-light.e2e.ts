import { useE2E } from './support/stack';
import { tour, TOUR_SERVER, TOUR_TIMEOUT_MS } from './support/tour';

// Every screen in English and the light theme: light contrast (support/tour.ts says why two passes).
const e2e = useE2E(TOUR_SERVER);

e2e.test('every screen in English, light: readable', () => tour(e2e, 'en', 'light'), TOUR_TIMEOUT_MS);
