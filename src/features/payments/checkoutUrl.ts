/** Stripe's hosted checkout is another site; the test checkout is a page of this app. */
export function isExternalUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

/** Leaving the app for another site. An object, so a test can watch the call (jsdom cannot navigate away). */
export const browserNavigation = {
  leaveFor(url: string): void {
    window.location.assign(url);
  },
};
