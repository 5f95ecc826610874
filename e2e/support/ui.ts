import type { Locator, Page } from 'playwright-core';

// What journeys look at, by role and accessible name, as a user (or a screen reader) would.

/** A toast: role="status" inside the "Notifications" region (its English name unless given). */
export function notice(page: Page, text: string | RegExp, regionName: string = 'Notifications'): Locator {
  return page.getByRole('region', { name: regionName }).getByRole('status').filter({ hasText: text });
}

/** Waits until the notice is on screen and answers its text. Notices go away after 5 s, so wait
 *  for them right after the action that causes them. */
export async function seeNotice(page: Page, text: string | RegExp, regionName?: string): Promise<string> {
  const toast = notice(page, text, regionName);
  await toast.first().waitFor({ state: 'visible' });
  return (await toast.first().textContent()) ?? '';
}

/** Waits for the path (query and hash ignored) to be exactly `pathname`. */
export async function waitForPath(page: Page, pathname: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === pathname);
}

export const pathOf = (page: Page): string => new URL(page.url()).pathname;

export function storedToken(page: Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem('accessToken'));
}

/** Puts a token where the web app keeps it. The page must already show one of our pages (the
 *  origin's localStorage); the app reads it on its next load. */
export async function storeToken(page: Page, token: string): Promise<void> {
  await page.evaluate((value) => localStorage.setItem('accessToken', value), token);
}

export function htmlLang(page: Page): Promise<string | null> {
  return page.evaluate(() => document.documentElement.getAttribute('lang'));
}

/** Waits for the page's language attribute (set by the app after the route renders). */
export async function waitForHtmlLang(page: Page, lang: string): Promise<void> {
  await page.waitForFunction((expected) => document.documentElement.lang === expected, lang);
}

/**
 * Opens a menu by its button and waits until it has finished sliding in: an item clicked while the
 * menu still moves can miss it (seen on a loaded machine: the click landed and nothing happened).
 */
export async function openMenu(page: Page, buttonName: string): Promise<Locator> {
  await page.getByRole('button', { name: buttonName }).click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  await menu.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((animation) => animation.finished)));
  return menu;
}

/** Fills the sign-in form and submits it (English labels unless given). */
export async function signInWithForm(
  page: Page,
  email: string,
  password: string,
  labels: { email: string; password: string; submit: string } = { email: 'Email', password: 'Password', submit: 'Sign in' },
): Promise<void> {
  await page.getByLabel(labels.email, { exact: true }).fill(email);
  await page.getByLabel(labels.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: labels.submit, exact: true }).click();
}

export function dashboardHeading(page: Page, name: string): Locator {
  return page.getByRole('heading', { level: 1, name: `Welcome back, ${name}`, exact: true });
}

/** A page that arrives signed in with a token got through the API (signing in itself is covered by auth.e2e.ts). */
export async function signedInPage(e2e: { newPage(): Promise<Page> }, token: string): Promise<Page> {
  const page = await e2e.newPage();
  await page.goto('/login');
  await page.getByRole('heading', { name: 'Welcome back', exact: true }).waitFor();
  await storeToken(page, token);
  return page;
}

/**
 * Switches a signed-in page to a theme as the app would hold it: the account's setting (which
 * wins after sign-in, UserThemeSync) and the browser's copy that public/theme-init.js reads before
 * the app loads. Takes effect on the page's next load.
 */
export async function useTheme(page: Page, baseUrl: string, token: string, theme: 'light' | 'dark'): Promise<void> {
  const res = await fetch(`${baseUrl}/api/v1/users/me/settings`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ theme }),
  });
  if (res.status !== 200) throw new Error(`Setting the theme answered ${res.status}`);
  await page.evaluate((value) => localStorage.setItem('theme', value), theme);
}

/** Creates a workflow through the list's dialog and lands in its editor holding one Import CSV
 *  step (English labels); answers the workflow's id. */
export async function editorWithOneStep(page: Page, name: string): Promise<string> {
  await page.goto('/workflows');
  await page.getByRole('button', { name: 'New workflow' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create and open' }).click();
  await page.waitForURL(/\/workflows\/[0-9a-f-]{36}$/);
  await page.getByRole('button', { name: 'Add step Import CSV' }).click();
  await page.getByTestId('step-node').first().waitFor();
  return pathOf(page).split('/').pop()!;
}

/**
 * Clicks a step's node on the editor's canvas until its settings form shows in the side panel. The
 * canvas may still be laying out and fitting its nodes when they first show, and a click then can
 * land before React Flow takes selections (CI: the panel never opened, or opened and closed).
 */
export async function openStepSettings(page: Page, node: Locator): Promise<void> {
  // The step's settings form (ParamForm); the panel's search box is there before any selection.
  const settings = page.locator('aside form').first();
  for (let attempt = 1; ; attempt++) {
    await node.click();
    try {
      await settings.waitFor({ timeout: 3_000 });
      return;
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
}
