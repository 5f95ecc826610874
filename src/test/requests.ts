import { waitFor } from '@testing-library/react';
import type { AppStore } from '../app/store';

/** Queries and mutations of the store's API slice that are on their way. */
export function requestsInFlight(store: AppStore): number {
  const { queries, mutations } = store.getState().api;
  return [...Object.values(queries), ...Object.values(mutations)].filter((entry) => entry?.status === 'pending').length;
}

/**
 * Waits until every request the store has started has landed: after it, a test may say that an
 * answer did not do something (no notice shown, nothing fetched again) without sleeping a while.
 */
export function requestsSettled(store: AppStore): Promise<void> {
  return waitFor(() => expect(requestsInFlight(store)).toBe(0));
}
