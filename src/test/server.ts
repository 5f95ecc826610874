import { setupServer } from 'msw/node';
import { handlers } from './handlers';

/** One msw server for the whole web suite, started and reset by setup.ts. */
export const server = setupServer(...handlers);
