import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { getWithToken, logInViaApi, newAccount, signUpViaApi, sendWithToken } from './support/api';
import { useE2E } from './support/stack';
import { editorWithOneStep, openStepSettings, signedInPage, useTheme } from './support/ui';

const e2e = useE2E();

interface StepJson {
  id: string;
  step_type: string;
  param_inputs: Record<string, unknown>;
}

/** Waits until the server's copy of the step satisfies `check` (saves land asynchronously). */
async function stepUntil(token: string, workflowId: string, check: (step: StepJson) => boolean): Promise<StepJson> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await getWithToken(e2e.baseUrl, `/api/v1/workflow-steps?workflow_id=${workflowId}`, token);
    const [step] = res.body as StepJson[];
    if ((step && check(step)) || Date.now() > deadline) return step;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const csv = (text: string) => Buffer.from(text);

/** Waits until the step's file field shows `name` (it is looked up by id, so it may say "Loading…" first). */
async function fileFieldShows(page: Page, name: string): Promise<void> {
  await page.waitForFunction((expected) => (document.getElementById('param-file') as HTMLInputElement | null)?.value === expected, name);
}

describe('choosing files for a step', () => {
  e2e.test(
    'upload customers.csv, add Import CSV, pick the file by name: the step no longer needs settings; upload another from inside the picker',
    async () => {
      const token = await logInViaApi(e2e.baseUrl, await signUpViaApi(e2e.baseUrl, newAccount({ name: 'Grace Hopper' })));
      const page = await signedInPage(e2e, token);

      // In the file manager: a folder with customers.csv, and a file import_csv cannot read.
      await page.goto('/files');
      await page.getByText('No files yet').waitFor();
      await page.getByRole('button', { name: 'New folder' }).click();
      await page.getByRole('textbox', { name: 'Folder name' }).fill('Exports');
      await page.getByRole('button', { name: 'Create folder' }).click();
      await page.getByRole('table', { name: 'Folder contents' }).getByRole('link', { name: 'Exports' }).click();
      await page.getByText('This folder is empty').waitFor();
      await page.setInputFiles('[data-testid=upload-files-input]', [
        { name: 'customers.csv', mimeType: 'text/csv', buffer: csv('id,name\n1,Ada\n2,Grace\n') },
        { name: 'readme.txt', mimeType: 'text/plain', buffer: csv('not a table') },
      ]);
      await page.getByText('2 uploads complete').waitFor();

      // A new Import CSV step needs its file.
      const workflowId = await editorWithOneStep(page, 'Customers');
      const node = page.getByTestId('step-node').first();
      await node.getByTestId('step-needs-settings').waitFor();
      await openStepSettings(page, page.locator('.react-flow__node', { hasText: 'Import CSV' }));
      const inspector = page.getByRole('complementary', { name: 'Step settings' });

      // The picker browses my files: into the folder, where only the CSV can be chosen.
      await inspector.getByRole('button', { name: 'Choose CSV file' }).click();
      const picker = page.getByRole('dialog', { name: 'CSV file' });
      const entries = picker.getByRole('list', { name: 'Folder contents' });
      await entries.getByRole('button', { name: 'Exports' }).click();
      await picker.getByRole('navigation', { name: 'Folder path' }).getByText('Exports').waitFor();
      expect(await entries.getByRole('button', { name: 'readme.txt' }).getAttribute('aria-disabled')).toBe('true');
      await picker.getByRole('textbox', { name: 'Filter by name' }).fill('cust');
      await entries.getByRole('button', { name: 'customers.csv' }).click();
      await picker.getByRole('button', { name: 'Choose file' }).click();
      await picker.waitFor({ state: 'hidden' });

      expect(await inspector.getByRole('textbox', { name: /^CSV file/ }).inputValue()).toBe('customers.csv');
      await inspector.getByText('In My files / Exports').waitFor();
      await inspector.screenshot({ path: path.join(os.tmpdir(), `stepwise-file-param-${process.pid}.png`) });
      await inspector.getByRole('button', { name: 'Save settings' }).click();
      await node.getByTestId('step-needs-settings').waitFor({ state: 'detached' });
      const saved = await stepUntil(token, workflowId, (s) => typeof s.param_inputs.file === 'string');
      const files = (await getWithToken(e2e.baseUrl, `/api/v1/files/files/${String(saved.param_inputs.file)}`, token)).body as { name: string };
      expect(files.name).toBe('customers.csv');

      // Reopened later, the field names the file (looked up by id), and a file uploaded from inside
      // the picker is chosen for me.
      await page.reload();
      await openStepSettings(page, page.locator('.react-flow__node', { hasText: 'Import CSV' }));
      await fileFieldShows(page, 'customers.csv');
      await inspector.getByRole('button', { name: 'Change CSV file' }).click();
      await picker.getByRole('navigation', { name: 'Folder path' }).getByText('Exports').waitFor();
      await picker.locator('[data-testid=upload-files-input]').setInputFiles([{ name: 'orders.csv', mimeType: 'text/csv', buffer: csv('id,total\n1,9.5\n') }]);
      await picker.getByText('Selected: orders.csv').waitFor();
      expect(await entries.getByRole('button', { name: 'orders.csv' }).getAttribute('aria-pressed')).toBe('true');
      await picker.getByRole('button', { name: 'Choose file' }).click();
      await inspector.getByRole('button', { name: 'Save settings' }).click();
      const changed = await stepUntil(token, workflowId, (s) => s.param_inputs.file !== saved.param_inputs.file);
      const orders = (await getWithToken(e2e.baseUrl, `/api/v1/files/files/${String(changed.param_inputs.file)}`, token)).body as {
        name: string;
        path: { name: string }[];
      };
      expect(orders).toMatchObject({ name: 'orders.csv', path: [{ name: 'Exports' }] });
    },
    120_000,
  );

  e2e.test('the picker follows dark mode', async () => {
    const token = await logInViaApi(e2e.baseUrl, await signUpViaApi(e2e.baseUrl, newAccount()));
    const page = await signedInPage(e2e, token);
    await useTheme(page, e2e.baseUrl, token, 'dark');
    // Something to show: a folder, a CSV to choose and a file that cannot be chosen.
    const form = new FormData();
    form.append('file', new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'planets.csv');
    form.append('file', new Blob(['notes'], { type: 'text/plain' }), 'notes.txt');
    await sendWithToken(e2e.baseUrl, token, 'POST', '/api/v1/files/', form);
    await sendWithToken(e2e.baseUrl, token, 'POST', '/api/v1/files/folders', { name: 'Archive' });

    await editorWithOneStep(page, 'In the dark');
    await openStepSettings(page, page.locator('.react-flow__node', { hasText: 'Import CSV' }));
    await page.getByRole('button', { name: 'Choose CSV file' }).click();
    const picker = page.getByRole('dialog', { name: 'CSV file' });
    await picker.getByRole('button', { name: 'planets.csv' }).click();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    // Semantic tokens: a dark panel with light text, not the light theme's white.
    const colors = await picker.evaluate((el) => ({ bg: getComputedStyle(el).backgroundColor, fg: getComputedStyle(el.querySelector('h2')!).color }));
    const luminance = (rgb: string) => {
      const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).map(Number);
      return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    };
    expect({ bg: luminance(colors.bg) < 0.25, fg: luminance(colors.fg) > 0.75 }).toEqual({ bg: true, fg: true });
    await picker.screenshot({ path: path.join(os.tmpdir(), `stepwise-file-picker-dark-${process.pid}.png`) });
  });
});
