import path from 'node:path';
import { createIntl } from 'react-intl';
import type { Page } from 'playwright-core';
import en from '../i18n/en.json';
import zh from '../i18n/zh-CN.json';
import { logInViaApi, newAccount, sendWithToken, signUpViaApi } from './support/api';
import { startRecording, type Recording } from './support/recorder';
import { useE2E, type E2E } from './support/stack';
import { storeToken } from './support/ui';

// Records the tutorial videos the videos page starts with (server/src/db/migrations/seed-videos.ts)
// from the product as it is, in English and in Chinese, into public/tutorials/:
//   npm run tutorials:record        (needs ffmpeg: apt-get install ffmpeg; TUTORIAL=files for one)
// Skipped otherwise, so that a test run never rewrites them. Each recording is also a journey: it
// fails when a step of the tutorial no longer works.

// Filters and totals are priced here so the billing tutorial has spending to show.
// The billing tutorial buys a pack on the test checkout, which only exists when asked for.
const e2e = useE2E({
  IN_PROCESS_WORKER: 'true',
  BILLING_ENABLED: 'true',
  STRIPE_TEST_CHECKOUT: 'true',
  STEP_PRICES: JSON.stringify({ filter: 2, aggregate: 3 }),
});
const describeWhenAsked = process.env.RECORD_TUTORIALS === '1' ? describe : describe.skip;
const OUT = path.resolve(__dirname, '../public/tutorials');

type Lang = 'en' | 'cn';

/** The app's own texts, by catalog key, in the tutorial's language. */
const textsOf = (lang: Lang) => {
  const intl = createIntl({ locale: lang === 'cn' ? 'zh-CN' : 'en', messages: lang === 'cn' ? zh : en });
  return (id: keyof typeof en, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
};

/** A new account in the tutorial's language, signed in on a page of that language. */
async function tutorialPage(e2e: E2E, lang: Lang): Promise<{ page: Page; token: string; prefix: string }> {
  const token = await logInViaApi(e2e.baseUrl, await signUpViaApi(e2e.baseUrl, newAccount({ name: lang === 'cn' ? '林小雨' : 'Ada Lovelace' })));
  if (lang === 'cn') await sendWithToken(e2e.baseUrl, token, 'PATCH', '/api/v1/users/me/settings', { locale: 'cn' });
  const page = await e2e.newPage({ locale: lang === 'cn' ? 'zh-CN' : 'en-US' });
  const prefix = lang === 'cn' ? '/cn' : '';
  await page.goto(`${prefix}/login`);
  await page.locator('form').first().waitFor();
  await storeToken(page, token);
  return { page, token, prefix };
}

/** A step type's name and its params' labels as the catalogue shows them in that language. */
async function stepInfo(type: string, lang: Lang, token: string): Promise<{ name: string; label: (param: string) => string }> {
  const res = await fetch(`${e2e.baseUrl}/api/v1/workflow-step-infos/${type}`, {
    headers: { authorization: `Bearer ${token}`, 'accept-language': lang === 'cn' ? 'zh-CN' : 'en' },
  });
  const info = (await res.json()) as { name?: string; params?: { name: string; label: string }[] };
  if (!info.name || !info.params) throw new Error(`No step info for ${type} (HTTP ${res.status})`);
  return { name: info.name, label: (param) => info.params!.find((p) => p.name === param)!.label };
}

const orders = [
  'region,amount,status',
  ...Array.from({ length: 24 }, (_, i) => `${['North', 'South', 'East'][i % 3]},${20 + i * 3},${i % 5 === 0 ? 'refunded' : 'paid'}`),
].join('\n');

const captions = {
  firstWorkflow: {
    en: [
      'Upload a CSV file in Files',
      'Start a workflow from it',
      'Add a step from the catalogue',
      'Say which rows to keep, then save',
      'Run the workflow and watch each step',
      'Open the result',
    ],
    cn: ['在“文件”中上传一个 CSV 文件', '用它新建工作流', '从步骤目录添加一个步骤', '写下要保留哪些行，然后保存', '运行工作流，观察每个步骤', '打开结果'],
  },
  billing: {
    en: [
      'Billing shows your balance and what your workflows spent',
      'Compare workflows',
      'Every charge, step by step',
      'Top up: choose a pack',
      'Pay on the checkout page (test mode here)',
      'The credits are in your balance',
    ],
    cn: [
      '“账单”显示余额以及各工作流的花费',
      '比较各个工作流',
      '每一笔费用，精确到步骤',
      '充值：选择一个套餐',
      '在结账页面付款（此处为测试模式）',
      '积分已到账',
    ],
  },
  files: {
    en: [
      'Files keeps everything you upload',
      'Make a folder for your reports',
      'Upload straight into it',
      'Each file has its actions: preview, download, use in a workflow',
    ],
    cn: ['“文件”保存你上传的一切', '为报表新建一个文件夹', '直接上传到文件夹中', '每个文件都有操作：预览、下载、在工作流中使用'],
  },
};

async function recordFirstWorkflow(lang: Lang): Promise<number> {
  const t = textsOf(lang);
  const say = captions.firstWorkflow[lang];
  const { page, prefix, token } = await tutorialPage(e2e, lang);
  const rec: Recording = await startRecording(page);
  await page.goto(`${prefix}/files`);
  await page.getByText(t('files.empty.rootTitle')).waitFor();
  await rec.caption(say[0]);
  await page.setInputFiles('[data-testid=upload-files-input]', [{ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(`${orders}\n`) }]);
  await page.getByText(t('files.upload.finished', { count: 1 })).waitFor();
  await rec.caption(say[1]);
  await page.getByRole('button', { name: t('files.actionsFor', { name: 'orders.csv' }) }).click();
  await page.getByRole('menuitem', { name: t('files.action.useInWorkflow') }).click();
  await page.waitForTimeout(600);
  await page.getByRole('button', { name: t('workflows.fromFile.start') }).click();
  await page.waitForURL(/\/workflows\/[0-9a-f-]{36}$/);
  await page.getByTestId('step-node').first().waitFor();
  await rec.caption(say[2]);
  const [csv, filter] = await Promise.all([stepInfo('import_csv', lang, token), stepInfo('filter', lang, token)]);
  // A step from the catalogue goes after the selected one, connected to it.
  await page.locator('.react-flow__node', { hasText: csv.name }).first().click();
  await page.getByRole('button', { name: t('catalogue.add', { name: filter.name }) }).click();
  const filterNode = page.locator('.react-flow__node', { hasText: filter.name });
  await filterNode.waitFor();
  await filterNode.click();
  await rec.caption(say[3], 800);
  const inspector = page.getByRole('complementary', { name: t('editor.inspector.label') });
  const condition = inspector.getByLabel(filter.label('condition'));
  await condition.click();
  await condition.pressSequentially("status = 'paid'", { delay: 60 });
  await inspector.getByRole('button', { name: t('params.save') }).click();
  await page.waitForTimeout(1200);
  await rec.caption(say[4], 600);
  await page.getByRole('button', { name: t('run.workflow') }).click();
  const panel = page.getByTestId('run-panel');
  await panel.getByTestId('run-state').getByText(t('run.state.succeeded')).waitFor({ timeout: 30_000 });
  await page.waitForTimeout(1500);
  await rec.caption(say[5], 600);
  await panel
    .getByRole('link', { name: t('run.step.output') })
    .last()
    .click();
  await page.getByRole('grid').getByRole('row').nth(2).waitFor();
  await page.waitForTimeout(2500);
  return rec.save(path.join(OUT, ...(lang === 'cn' ? ['cn'] : [])), 'first-workflow');
}

async function recordFiles(lang: Lang): Promise<number> {
  const t = textsOf(lang);
  const say = captions.files[lang];
  const { page, prefix } = await tutorialPage(e2e, lang);
  const rec = await startRecording(page);
  await page.goto(`${prefix}/files`);
  await page.getByText(t('files.empty.rootTitle')).waitFor();
  await rec.caption(say[0]);
  await rec.caption(say[1], 800);
  await page.getByRole('button', { name: t('files.newFolder.button') }).click();
  const dialog = page.getByRole('dialog');
  const nameField = dialog.getByRole('textbox').first();
  await nameField.pressSequentially(lang === 'cn' ? '报表' : 'Reports', { delay: 80 });
  await nameField.press('Enter');
  const folderName = lang === 'cn' ? '报表' : 'Reports';
  await page.getByRole('link', { name: folderName }).first().click();
  await page.waitForURL(/\/files\/[0-9a-f-]{36}$/);
  await rec.caption(say[2], 800);
  await page.setInputFiles('[data-testid=upload-files-input]', [
    { name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(`${orders}\n`) },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Weekly report notes\n') },
  ]);
  await page.getByText(t('files.upload.finished', { count: 2 })).waitFor();
  await page.waitForTimeout(1000);
  await rec.caption(say[3], 600);
  await page.getByRole('button', { name: t('files.actionsFor', { name: 'orders.csv' }) }).click();
  await page.waitForTimeout(2500);
  await page.keyboard.press('Escape');
  return rec.save(path.join(OUT, ...(lang === 'cn' ? ['cn'] : [])), 'files');
}

/** Two small workflows run to the end through the API, so the account has spending to look at. */
async function spendSomeCredits(token: string, names: string[]): Promise<void> {
  const api = (method: string, pathname: string, body?: unknown) => sendWithToken(e2e.baseUrl, token, method, `/api/v1${pathname}`, body);
  for (const [i, name] of names.entries()) {
    const workflow = await api('POST', '/workflows/', { name });
    const table = await api('POST', '/workflow-steps/', {
      workflow_id: workflow.id,
      step_type: 'table_input',
      name: 'Orders',
      position: { x: 0, y: 0 },
      param_inputs: {
        columns: [
          { name: 'region', type: 'text' },
          { name: 'amount', type: 'integer' },
        ],
        rows: [
          ['North', 10],
          ['South', 25 + i],
          ['North', 40],
        ],
      },
    });
    const filter = await api('POST', '/workflow-steps/', {
      workflow_id: workflow.id,
      step_type: 'filter',
      name: 'Big orders',
      inputs: [table.id],
      position: { x: 0, y: 160 },
      param_inputs: { condition: 'amount > 20' },
    });
    const totals = await api('POST', '/workflow-steps/', {
      workflow_id: workflow.id,
      step_type: 'aggregate',
      name: 'Totals',
      inputs: [filter.id],
      position: { x: 0, y: 320 },
      param_inputs: { group_by: ['region'], aggregations: [{ column: 'amount', function: 'sum', as: 'total' }] },
    });
    for (let run = 0; run <= i; run++) {
      const started = await api('POST', `/workflow-execution/${workflow.id as string}/steps/${totals.id as string}/execute?mode=all`, {});
      for (let tries = 0; ; tries++) {
        const state = (await api('GET', `/workflow-runs/${started.id as string}`)).state;
        if (state === 'succeeded') break;
        if (state === 'failed' || tries > 100) throw new Error(`The run of ${name} ended ${String(state)}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }
}

async function recordBilling(lang: Lang): Promise<number> {
  const t = textsOf(lang);
  const say = captions.billing[lang];
  const { page, prefix, token } = await tutorialPage(e2e, lang);
  await spendSomeCredits(token, lang === 'cn' ? ['每周销售', '客户清理'] : ['Weekly sales', 'Customer clean-up']);
  const rec = await startRecording(page);
  await page.goto(`${prefix}/billing`);
  await page.getByText(t('billing.balance')).first().waitFor();
  await page.waitForTimeout(800);
  await rec.caption(say[0], 2600);
  const byWorkflow = page.getByRole('button', { name: t('billing.chart.byWorkflow') });
  await byWorkflow.evaluate((el) => el.scrollIntoView({ block: 'start', behavior: 'smooth' }));
  await page.waitForTimeout(800);
  await byWorkflow.click();
  await rec.caption(say[1], 2400);
  await page.getByText(t('billing.records.title')).evaluate((el) => el.scrollIntoView({ block: 'start', behavior: 'smooth' }));
  await rec.caption(say[2], 2600);
  await page
    .getByText(t('payments.topUp.title'))
    .first()
    .evaluate((el) => el.scrollIntoView({ block: 'start', behavior: 'smooth' }));
  await rec.caption(say[3], 1400);
  await page.getByRole('button', { name: t('payments.buyPack', { name: 'Starter' }) }).click();
  await page.waitForURL(/\/billing\/test-checkout\/[0-9a-f-]{36}$/);
  await page.getByText(t('payments.testCheckout.banner'), { exact: true }).waitFor();
  await rec.caption(say[4], 2000);
  await page.getByRole('button', { name: new RegExp(`^${t('payments.testCheckout.pay', { amount: 'AMOUNT' }).replace('AMOUNT', '.*')}$`) }).click();
  await page.waitForURL((url) => url.pathname.endsWith('/billing'));
  await page.getByText(t('payments.banner.success.title')).waitFor();
  await rec.caption(say[5], 3000);
  return rec.save(path.join(OUT, ...(lang === 'cn' ? ['cn'] : [])), 'billing');
}

const tutorials: Record<string, (lang: Lang) => Promise<number>> = { 'first-workflow': recordFirstWorkflow, files: recordFiles, billing: recordBilling };

describeWhenAsked('tutorial videos', () => {
  for (const [name, record] of Object.entries(tutorials)) {
    if (process.env.TUTORIAL && process.env.TUTORIAL !== name) continue;
    for (const lang of ['en', 'cn'] as const) {
      e2e.test(`${name} (${lang})`, async () => console.log(`${name} (${lang}): ${await record(lang)} s`), 180_000);
    }
  }
});
