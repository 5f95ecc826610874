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
    'upload a CSV, start a workflow from it, add filter → group → export, run it and watch it finish, see each step\'s rows and counts, get "did you mean" on a wrong column, browse, sort and filter the totals, download them as shown',
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
      // Each node on the canvas says how its step went, and how many rows it made (the SQL steps'
      // counts too, though their outputs were never written); each connection the rows it carried.
      expect(await page.getByTestId('step-node').filter({ hasText: 'Succeeded' }).count()).toBe(4);
      const paidCount = orders.slice(1).filter((line) => line.endsWith(',paid')).length;
      await page.getByTestId('step-node').filter({ hasText: 'Paid orders' }).getByText(`${paidCount} of ${paidCount}`).waitFor();
      await page.locator('.react-flow__edge-text').getByText(`${paidCount} rows`, { exact: true }).waitFor();

      // Each step's data beside it: its output's count, columns and first rows, and what it read.
      await page.getByTestId('step-node').filter({ hasText: 'Totals per region' }).click();
      const data = page.getByTestId('step-data');
      await data.getByTestId('step-data-count').getByText('3 rows · 2 columns').waitFor();
      const firstRows = data.getByRole('table', { name: 'First rows' }).getByRole('row');
      await firstRows.nth(3).waitFor();
      expect(await firstRows.count()).toBe(4);
      await data.getByRole('tab', { name: 'Input' }).click();
      await data.getByTestId('step-data-count').getByText(`${paidCount} rows · 3 columns`).waitFor();

      // A column typed wrong is flagged before saving, with the one it likely meant.
      await page.getByTestId('step-node').filter({ hasText: 'Paid orders' }).click();
      await page.getByLabel('Condition').fill("stauts = 'paid'");
      await page.getByTestId('unknown-column').getByText('The input has no column “stauts”: did you mean “status”?').waitFor();
      await page.getByRole('button', { name: 'Discard changes' }).click();

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

      // Download the totals as CSV, sorted by their total, highest first, as the grid shows them.
      const downloaded = async (name: string) => {
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
        const saved = `${e2e.stack.dataDir}/${name}`;
        await download.saveAs(saved);
        return fs.readFileSync(saved, 'utf8').trim().split('\n');
      };
      const total = page.getByRole('columnheader', { name: /^total/ });
      await total.click();
      await total.click();
      await page.getByTestId('download-as-shown').waitFor();
      const byTotal = [...expectedTotals].sort((a, b) => b[1] - a[1]);
      expect(await downloaded('totals-sorted.csv')).toEqual(['region,total', ...byTotal.map(([region, sum]) => `${region},${sum}`)]);

      // Filter to one region: the download is that region alone; taken off, all three again.
      await page.getByRole('combobox', { name: 'Filter column' }).selectOption('region');
      await page.getByRole('combobox', { name: 'Filter operator' }).selectOption('=');
      await page.getByRole('textbox', { name: 'Filter value' }).fill('东部');
      await page.getByRole('button', { name: 'Add filter' }).click();
      await page.waitForFunction(() => document.querySelectorAll('[role=grid] [role=row]').length === 2);
      expect((await cells()).map((row) => row.includes('东部'))).toEqual([true]);
      expect(await downloaded('totals-east.csv')).toEqual(['region,total', `东部,${expectedTotals.get('东部')}`]);
      await page.getByRole('button', { name: /^Remove filter/ }).click();
      await page.waitForFunction(() => document.querySelectorAll('[role=grid] [role=row]').length === 4);

      // With the record ids when asked for them.
      await page.getByText('Include record ids').click();
      const withIds = await downloaded('totals-ids.csv');
      expect(withIds[0]).toBe('_id,region,total');
      expect(withIds).toHaveLength(4);

      // And the export step left totals.csv among the user's files.
      const top = (await getWithToken(e2e.baseUrl, '/api/v1/files/folders/root', token)).body as { items: { name: string }[] };
      expect(top.items.map((f) => f.name).sort()).toEqual(['orders.csv', 'totals.csv']);
    },
    120_000,
  );
});
