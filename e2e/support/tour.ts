import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { setUserRole } from '../../server/src/modules/users/set-role';
import { logInViaApi, newAccount, sendWithToken, signUpViaApi } from './api';
import { englishOnlyTexts, lowContrastTexts, untranslatedTexts, type LowContrast } from './audit';
import { ARTIFACTS_DIR, type E2E } from './stack';
import { openStepSettings, signedInPage, storeToken, useTheme, waitForHtmlLang } from './ui';

// The tour of every screen (tour-*.e2e.ts): each text readable against its background (WCAG AA),
// nothing left in English in the Chinese interface, no CSP violation (the harness fails on those).
// Screenshots of each screen land in e2e/.artifacts/tour/ for review.
//
// Two passes cover the four combinations of theme and language: English in light and Chinese in
// dark. A text's colours come from the theme and not from the language, and its words from the
// language and not from the theme, so light contrast is measured on the English pass, dark contrast
// and every untranslated text on the Chinese one; the other two passes would repeat those
// measurements on the same screens. Each pass is a file of its own so that the two run at once.

/**
 * Environment of a tour's server: the runs the editor and the dataset pages show are executed by its
 * own worker; billing is on, with the test checkout (never on by default), so the billing screens,
 * the cost estimates and the test checkout page are there to measure.
 */
export const TOUR_SERVER = { IN_PROCESS_WORKER: 'true', BILLING_ENABLED: 'true', STRIPE_TEST_CHECKOUT: 'true' };
/** Opening ~35 screens with a run behind them, waiting for each to settle and measuring it. */
export const TOUR_TIMEOUT_MS = 150_000;

export type Language = 'en' | 'cn';
export type Theme = 'light' | 'dark';

/** The journey file's harness, set by tour() (each journey file has a module registry of its own). */
let e2e: E2E;
const api = (token: string, language: Language, method: string, pathname: string, body?: unknown) =>
  sendWithToken(e2e.baseUrl, token, method, `/api/v1${pathname}`, body, language);

interface Furnished {
  token: string;
  workflowId: string;
  /** The output of the add-column step in the newest run, and the earlier run's one it is compared with. */
  datasetId: string;
  /** A contact query of the user's, open in the support queue. */
  queryId: string;
  /** A credit pack checkout not paid yet (test mode). */
  paymentId: string;
}

const FINAL_STATES = ['succeeded', 'failed', 'cancelled'];

/**
 * An admin (so the support and admin screens open too) in the given language with a CSV in a folder, a workflow reading it (filter, add column,
 * and a second filter naming a column the CSV lacks), and two runs of it: a first one up to the
 * added column, then, with the filter and the formula changed (a cached step would reuse its
 * dataset, leaving nothing to compare), the whole workflow, whose second filter fails.
 */
async function furnishedAccount(language: Language): Promise<Furnished> {
  const zh = language === 'cn';
  const account = await signUpViaApi(e2e.baseUrl, newAccount({ name: zh ? '林佳' : 'Grace Hopper' }));
  await setUserRole(e2e.stack.app.db, account.email, 'admin');
  const token = await logInViaApi(e2e.baseUrl, account);
  await api(token, language, 'PATCH', '/users/me/settings', { locale: language });

  const folder = await api(token, language, 'POST', '/files/folders', { name: zh ? '客户' : 'Customers' });
  const upload = new FormData();
  upload.append('file', new Blob(['id,name,country\n1,Ada,NL\n2,Alan,UK\n3,Grace,NL\n4,Edsger,NL\n'], { type: 'text/csv' }), 'customers.csv');
  const uploaded = await api(token, language, 'POST', `/files/?folder_id=${folder.id as string}`, upload);
  const fileId = (uploaded.items as { id: string }[])[0].id;

  const workflow = await api(token, language, 'POST', '/workflows/', { name: zh ? '客户清理' : 'Customer clean-up', tags: ['crm'] });
  const workflowId = workflow.id as string;
  const step = (body: Record<string, unknown>) => api(token, language, 'POST', '/workflow-steps/', { workflow_id: workflowId, ...body });
  const csv = await step({ step_type: 'import_csv', param_inputs: { file: fileId }, position: { x: 0, y: 0 } });
  const filter = await step({ step_type: 'filter', param_inputs: { condition: "country IN ('NL', 'UK')" }, inputs: [csv.id], position: { x: 0, y: 160 } });
  const label = await step({
    step_type: 'add_column',
    param_inputs: { new_column: 'label', expression: 'upper(name)' },
    inputs: [filter.id],
    position: { x: 0, y: 320 },
  });
  // A branch whose code throws on one customer: the second run fails there (a run over a column the
  // input lacks is refused before it starts, so it would show no failed run).
  const failure = zh ? '英国客户没有地区' : 'No region for UK customers';
  await step({
    step_type: 'code',
    param_inputs: { code: `if (record.country === 'UK') throw new Error(${JSON.stringify(failure)}); return record;` },
    inputs: [csv.id],
    position: { x: 320, y: 160 },
  });

  const run = async (stepId: unknown, mode: string) => {
    const started = await api(token, language, 'POST', `/workflow-execution/${workflowId}/steps/${stepId as string}/execute?mode=${mode}`, {});
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      const current = (await api(token, language, 'GET', `/workflow-runs/${started.id as string}`)) as {
        state: string;
        step_runs: { step_id: string; output_dataset_id: string | null }[];
      };
      if (FINAL_STATES.includes(current.state)) return current;
    }
    throw new Error(`The run of ${workflowId} did not end within 30 s`);
  };
  await run(label.id, 'up_to');
  await api(token, language, 'PATCH', `/workflow-steps/${filter.id as string}/param-inputs`, { param_inputs: { condition: "country = 'NL'" } });
  await api(token, language, 'PATCH', `/workflow-steps/${label.id as string}/param-inputs`, {
    param_inputs: { new_column: 'label', expression: "concat(name, ' (', country, ')')" },
  });
  const second = await run(csv.id, 'all');
  if (second.state !== 'failed') throw new Error(`The second run should fail in the code step, it ended ${second.state}`);
  const datasetId = second.step_runs.find((s) => s.step_id === label.id)?.output_dataset_id;
  if (!datasetId) throw new Error('The second run wrote no dataset for the added column');

  // Something on the support, admin and billing screens.
  const query = await api(token, language, 'POST', '/contact/submit', {
    subject: zh ? '导入在第 10,000 行停止' : 'Row limit on a large CSV',
    message: zh ? '我的 CSV 有 50,000 行，但导入只读到 10,000 行。' : 'My CSV has 50,000 rows but the import stops at 10,000.',
    category: 'technical',
  });
  await api(token, language, 'POST', '/beta-interest/admin/invitation-codes', { count: 2, max_uses: 1, note: zh ? '柏林聚会' : 'Meetup in Berlin' });
  const checkout = await api(token, language, 'POST', '/payments/create-checkout-session', { pack_id: 'starter' });
  return { token, workflowId, datasetId, queryId: (query.query as { id: string }).id, paymentId: checkout.id as string };
}

interface Screen {
  name: string;
  path: string;
  /** Sets up what the screen shows, through the API, before it is opened. */
  before?: () => Promise<void>;
  /** Brings the screen to the state worth looking at (a selected step, a tab). */
  open?: (page: Page) => Promise<void>;
}

const screens = ({ workflowId, datasetId, queryId, paymentId }: Furnished, publish: () => Promise<void>): Screen[] => [
  { name: 'dashboard', path: '/' },
  { name: 'workflows', path: '/workflows' },
  {
    name: 'editor',
    path: `/workflows/${workflowId}`,
    open: (page) => selectStep(page, 1),
  },
  {
    name: 'history',
    path: `/workflows/${workflowId}`,
    open: async (page) => {
      // The side panel's tabs (Steps, Variables, History, Assistant): the run panel below the
      // canvas has tabs of its own.
      await page.locator('aside').first().getByRole('tab').nth(2).click();
      await page.locator('[role="tabpanel"] li:visible').first().waitFor();
    },
  },
  {
    // The newest run failed (the second filter names a column the CSV lacks): error text, state
    // badges on the nodes, and a finished step's log and compute details opened.
    name: 'run-panel',
    path: `/workflows/${workflowId}`,
    open: async (page) => {
      await page.locator('[data-testid="step-run-state"][data-state="failed"]').waitFor();
      const finished = page
        .getByTestId('step-run-row')
        .filter({ has: page.locator('[data-state="succeeded"]') })
        .last();
      await finished.locator('button[aria-expanded]').click();
      await page.getByTestId('step-run-details').locator('pre').waitFor();
    },
  },
  {
    name: 'run-history',
    path: `/workflows/${workflowId}`,
    open: async (page) => {
      await page.getByTestId('run-panel').getByRole('tab').last().click();
      await page.getByTestId('run-history-item').nth(1).waitFor();
    },
  },
  {
    name: 'shortcut-sheet',
    path: `/workflows/${workflowId}`,
    open: async (page) => {
      await page.getByTestId('step-node').first().waitFor();
      await page.keyboard.press('?');
      await page.getByRole('dialog').waitFor();
    },
  },
  {
    name: 'details-dialog',
    path: `/workflows/${workflowId}`,
    open: async (page) => {
      await page.getByTestId('step-node').first().waitFor();
      await page.getByRole('button', { name: /^(Details|详情)$/ }).click();
      await page.getByRole('dialog').waitFor();
    },
  },
  {
    name: 'file-picker',
    path: `/workflows/${workflowId}`,
    open: async (page) => {
      await selectStep(page, 0);
      await page.getByRole('complementary').locator('button[aria-haspopup="dialog"]').first().click();
      await page.getByRole('dialog').getByRole('list').first().waitFor();
    },
  },
  {
    name: 'publish-dialog',
    path: `/workflows/${workflowId}`,
    open: async (page) => {
      await page.getByTestId('step-node').first().waitFor();
      await page
        .getByText(/^(Publish|发布)$/)
        .first()
        .click();
      await page.getByRole('dialog').waitFor();
    },
  },
  {
    name: 'new-workflow-dialog',
    path: '/workflows',
    open: async (page) => {
      await page
        .getByRole('button', { name: /New workflow|新建工作流/ })
        .first()
        .click();
      await page.getByRole('dialog').waitFor();
    },
  },
  { name: 'dataset-records', path: `/datasets/${datasetId}`, open: filterRecords },
  {
    name: 'record-drawer',
    path: `/datasets/${datasetId}`,
    open: async (page) => {
      await filterRecords(page);
      await page.getByRole('grid').getByRole('row').nth(1).click();
      await page.getByRole('dialog').locator('dl').waitFor();
      // Measured once it has slid in: mid-animation its texts are still fading in.
      await page.waitForFunction(() =>
        document
          .querySelector('[role="dialog"]')
          ?.getAnimations({ subtree: true })
          .every((a) => a.playState !== 'running'),
      );
    },
  },
  {
    name: 'dataset-schema',
    path: `/datasets/${datasetId}`,
    open: async (page) => {
      await (await openTab(page, 1)).getByRole('table').waitFor();
    },
  },
  {
    // This run's added column against the earlier run's (another filter, another formula), by id.
    name: 'dataset-compare',
    path: `/datasets/${datasetId}`,
    open: async (page) => {
      const panel = await openTab(page, 2);
      const choices = panel.getByRole('combobox');
      await choices.nth(0).selectOption({ index: 1 });
      await choices.nth(1).locator('option[value="id"]').waitFor({ state: 'attached' });
      await choices.nth(1).selectOption('id');
      await panel.getByRole('table').locator('del').first().waitFor();
    },
  },
  // Every run across workflows (the editor's runs above are among them).
  { name: 'executions', path: '/executions', open: (page) => page.getByTestId('execution-row').first().waitFor() },
  {
    name: 'files',
    path: '/files',
    open: (page) =>
      page
        .locator('main')
        .getByText(/Customers|客户/)
        .first()
        .waitFor(),
  },
  { name: 'settings', path: '/settings' },
  { name: 'gallery', path: '/gallery', before: publish },
  { name: 'gallery-preview', path: `/gallery/${workflowId}`, open: (page) => page.getByTestId('step-node').nth(2).waitFor() },
  { name: 'billing', path: '/billing' },
  { name: 'test-checkout', path: `/billing/test-checkout/${paymentId}` },
  { name: 'contact', path: '/contact' },
  { name: 'contact-query', path: `/contact/${queryId}` },
  { name: 'support', path: '/support' },
  { name: 'support-query', path: `/support/${queryId}` },
  { name: 'beta', path: '/beta' },
  { name: 'videos', path: '/videos' },
  { name: 'admin-invitation-codes', path: '/admin/invitation-codes' },
  { name: 'admin-videos', path: '/admin/videos' },
];

/**
 * Selects the editor's step at `index` and waits for its settings in the side panel. The canvas
 * may still be laying out when the nodes first show (openStepSettings clicks again until they do).
 */
async function selectStep(page: Page, index: number): Promise<void> {
  const nodes = page.getByTestId('step-node');
  await nodes.nth(2).waitFor();
  await openStepSettings(page, nodes.nth(index));
}

/** Opens the page's `index`th tab and answers its panel (the tab left may still be fading out). */
async function openTab(page: Page, index: number): Promise<Locator> {
  const tab = page.getByRole('tab').nth(index);
  await tab.click();
  return page.locator(`[id="${await tab.getAttribute('aria-controls')}"]`);
}

/** The records grid narrowed by a filter chip (names containing “a”). */
async function filterRecords(page: Page): Promise<void> {
  await page.getByRole('grid').getByRole('row').nth(1).waitFor();
  const form = page.getByRole('tabpanel').locator('form');
  await form.getByRole('combobox').first().selectOption('name');
  await form.getByRole('textbox').fill('a');
  await form.locator('button[type="submit"]').click();
  await page.getByRole('tabpanel').getByRole('listitem').first().waitFor();
  // The filtered page is in: Edsger left, Grace shown again.
  const rows = page.getByRole('grid').getByRole('row');
  await rows.filter({ hasText: 'Edsger' }).waitFor({ state: 'detached' });
  await rows.filter({ hasText: 'Grace' }).waitFor();
}

/** The step catalogue's English names and descriptions (served by the API, not in i18n/). */
async function englishStepTexts(token: string): Promise<RegExp[]> {
  const infos = (language: Language) =>
    api(token, language, 'GET', '/workflow-step-infos/?page_size=100') as Promise<unknown> as Promise<{
      items: { id: string; name: string; description: string }[];
    }>;
  const [en, zh] = await Promise.all([infos('en'), infos('cn')]);
  const chinese = new Map(zh.items.map((info) => [info.id, info]));
  return en.items
    .flatMap((info) => [info.name, info.description].filter((text, i) => text !== [chinese.get(info.id)?.name, chinese.get(info.id)?.description][i]))
    .map((text) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
}

/** Opens every screen, signed in and as a visitor, in one language and theme, and audits each. */
export async function tour(harness: E2E, language: Language, theme: Theme): Promise<void> {
  e2e = harness;
  const english = englishOnlyTexts(path.resolve(__dirname, '../..'));
  const furnished = await furnishedAccount(language);
  const { token, workflowId } = furnished;
  const englishTexts = language === 'cn' ? [...english, ...(await englishStepTexts(token))] : [];
  const page = await signedInPage(e2e, token);
  await useTheme(page, e2e.baseUrl, token, theme);
  await storeToken(page, token);
  await page.setViewportSize({ width: 1366, height: 850 });
  const dir = path.join(ARTIFACTS_DIR, 'tour');
  fs.mkdirSync(dir, { recursive: true });

  const unreadable: Record<string, LowContrast[]> = {};
  const untranslated: Record<string, string[]> = {};
  const publish = async () => void (await api(token, language, 'POST', `/workflows/${workflowId}/publish?published=true`));
  for (const screen of screens(furnished, publish)) {
    await screen.before?.();
    await page.goto(`${language === 'cn' ? '/cn' : ''}${screen.path === '/' && language === 'cn' ? '' : screen.path}`);
    await waitForHtmlLang(page, language === 'cn' ? 'zh-CN' : 'en');
    await page.locator('main h1, main h2, [data-testid="step-node"]').first().waitFor();
    await screen.open?.(page);
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
    await page.screenshot({ path: path.join(dir, `${language}-${theme}-${screen.name}.png`) });

    const low = await lowContrastTexts(page);
    if (low.length) unreadable[screen.name] = low;
    if (language === 'cn') {
      const left = await untranslatedTexts(page, englishTexts);
      if (left.length) untranslated[screen.name] = left;
    }
  }
  // What a visitor sees before signing in, in the same theme and language.
  await page.evaluate(() => localStorage.removeItem('accessToken'));
  for (const screen of visitorScreens) {
    await page.goto(language === 'cn' && screen.path !== '/' ? `/cn${screen.path}` : screen.path);
    await page.locator('h1').first().waitFor();
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: path.join(dir, `${language}-${theme}-${screen.name}.png`) });
    const low = await lowContrastTexts(page);
    if (low.length) unreadable[screen.name] = low;
    // The home page is not redirected to /cn: visitors get it in English unless they chose Chinese.
    if (language === 'cn' && screen.path !== '/') {
      const left = await untranslatedTexts(page, englishTexts);
      if (left.length) untranslated[screen.name] = left;
    }
  }
  // Both at once, so one run of the tour reports every finding.
  expect({ unreadable, untranslated }).toEqual({ unreadable: {}, untranslated: {} });
}

const visitorScreens: Screen[] = [
  { name: 'landing', path: '/' },
  { name: 'sign-in', path: '/login' },
  { name: 'sign-up', path: '/signup' },
  { name: 'forgot-password', path: '/forgot-password' },
  { name: 'request-invitation', path: '/request-invitation' },
  { name: 'videos-visitor', path: '/videos' },
];
