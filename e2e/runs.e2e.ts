import fs from 'node:fs';
import { getWithToken, logInViaApi, newAccount, sendWithToken, signUpViaApi } from './support/api';
import { useE2E } from './support/stack';
import { signedInPage } from './support/ui';

// Runs execute in the server process, as in the embedded default.
const e2e = useE2E({ IN_PROCESS_WORKER: 'true' });

interface StepJson {
  id: string;
  step_type: string;
}

// 40 orders over three regions: the workflow keeps the paid ones and totals them per region.
const orders = ['region,amount,status'];
for (let i = 0; i < 40; i++) orders.push(`${['North', 'South', '东部'][i % 3]},${10 + i},${i % 4 === 0 ? 'refunded' : 'paid'}`);
const expectedTotals = new Map<string, number>();
for (const line of orders.slice(1)) {
  const [region, amount, status] = line.split(',');
  if (status === 'paid') expectedTotals.set(region, (expectedTotals.get(region) ?? 0) + Number(amount));
}

describe('running a workflow', () => {
  e2e.test(
    'upload a CSV, start a workflow from it, add filter → group → export, run it and watch it finish, browse and filter the totals, download them',
    async () => {
      const token = await logInViaApi(e2e.baseUrl, await signUpViaApi(e2e.baseUrl, newAccount({ name: 'Katherine Johnson' })));
      const page = await signedInPage(e2e, token);

      // The CSV goes up through the file manager and a workflow starts from it.
      await page.goto('/files');
      await page.getByText('No files yet').waitFor();
      await page.setInputFiles('[data-testid=upload-files-input]', [
        { name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(`${orders.join('\n')}\n`) },
      ]);
      await page.getByText('1 upload complete').waitFor();
      await page.getByRole('button', { name: 'Actions for orders.csv' }).click();
      await page.getByRole('menuitem', { name: 'Use in a workflow' }).click();
      await page.getByRole('button', { name: 'New workflow from this file' }).click();
      await page.waitForURL(/\/workflows\/[0-9a-f-]{36}$/);
      const workflowId = new URL(page.url()).pathname.split('/').pop()!;
      await page.getByTestId('step-node').first().waitFor();

      // The rest of the chain, as the catalogue's forms would save it.
      const steps = (await getWithToken(e2e.baseUrl, `/api/v1/workflow-steps?workflow_id=${workflowId}`, token)).body as StepJson[];
      expect(steps.map((s) => s.step_type)).toEqual(['import_csv']);
      const add = (body: Record<string, unknown>) => sendWithToken(e2e.baseUrl, token, 'POST', '/api/v1/workflow-steps/', { workflow_id: workflowId, ...body });
      const paid = await add({
        step_type: 'filter',
        name: 'Paid orders',
        inputs: [steps[0].id],
        param_inputs: { condition: "status = 'paid'" },
        position: { x: 0, y: 160 },
      });
      const totals = await add({
        step_type: 'aggregate',
        name: 'Totals per region',
        inputs: [paid.id],
        param_inputs: { group_by: ['region'], aggregations: [{ column: 'amount', function: 'sum', as: 'total' }] },
        position: { x: 0, y: 320 },
      });
      await add({ step_type: 'export_csv', name: 'Save totals', inputs: [totals.id], param_inputs: { file_name: 'totals.csv' }, position: { x: 0, y: 480 } });
      await page.reload();
      await page.getByTestId('step-node').nth(3).waitFor();

      // Run it and watch: the panel follows the run until every step has succeeded.
      await page.getByRole('button', { name: 'Run workflow' }).click();
      const panel = page.getByTestId('run-panel');
      await panel.getByTestId('run-state').getByText('Succeeded').waitFor({ timeout: 30_000 });
      await panel.getByText('4 of 4 steps finished').waitFor();
      expect(await page.getByTestId('step-run-row').count()).toBe(4);
      const totalsRow = panel.getByRole('group', { name: 'Totals per region' });
      await totalsRow.getByText('Succeeded').waitFor();
      // Each node on the canvas says how its step went.
      expect(await page.getByTestId('step-node').filter({ hasText: 'Succeeded' }).count()).toBe(4);

      // The totals, in the dataset viewer.
      await totalsRow.getByRole('link', { name: 'Output dataset' }).click();
      await page.waitForURL(/\/datasets\/[0-9a-f-]{36}$/);
      const grid = page.getByRole('grid');
      await grid.getByRole('row').nth(3).waitFor();
      const cells = async () =>
        grid
          .getByRole('row')
          .evaluateAll((rows) => rows.slice(1).map((row) => Array.from(row.querySelectorAll('[role=gridcell]'), (cell) => cell.textContent ?? '')));
      const shown = await cells();
      expect(shown).toHaveLength(3);
      const totalOf = (region: string) =>
        shown
          .find((row) => row.includes(region))
          ?.at(-1)
          ?.replace(/[^\d.]/g, '');
      for (const [region, total] of expectedTotals) expect([region, Number(totalOf(region))]).toEqual([region, total]);

      // Filter to one region, then take the filter off again.
      await page.getByRole('combobox', { name: 'Filter column' }).selectOption('region');
      await page.getByRole('combobox', { name: 'Filter operator' }).selectOption('=');
      await page.getByRole('textbox', { name: 'Filter value' }).fill('东部');
      await page.getByRole('button', { name: 'Add filter' }).click();
      await page.waitForFunction(() => document.querySelectorAll('[role=grid] [role=row]').length === 2);
      expect((await cells()).map((row) => row.includes('东部'))).toEqual([true]);
      await page.getByRole('button', { name: /^Remove filter/ }).click();
      await page.waitForFunction(() => document.querySelectorAll('[role=grid] [role=row]').length === 4);

      // Download the totals as CSV.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
      const saved = `${e2e.stack.dataDir}/totals-download.csv`;
      await download.saveAs(saved);
      // The dataset as it is, record ids first (the export step leaves them out by default).
      const lines = fs.readFileSync(saved, 'utf8').trim().split('\n');
      expect(lines[0]).toBe('_id,region,total');
      expect(
        lines
          .slice(1)
          .map((line) => line.slice(line.indexOf(',') + 1))
          .sort(),
      ).toEqual([...expectedTotals].map(([region, total]) => `${region},${total}`).sort());

      // And the export step left totals.csv among the user's files.
      const top = (await getWithToken(e2e.baseUrl, '/api/v1/files/folders/root', token)).body as { items: { name: string }[] };
      expect(top.items.map((f) => f.name).sort()).toEqual(['orders.csv', 'totals.csv']);
    },
    120_000,
  );
});
