import fs from 'node:fs';
import { getWithToken, logInViaApi, newAccount, signUpViaApi } from './support/api';
import { useE2E } from './support/stack';
import { signedInPage } from './support/ui';

// Runs execute in the server process, as in the embedded default.
const e2e = useE2E({ IN_PROCESS_WORKER: 'true' });

interface StepJson {
  id: string;
  step_type: string;
  inputs: string[];
  param_inputs: Record<string, unknown>;
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
    'upload a CSV, start a workflow from it, build filter → group → sort → export with the pickers (the input previewed on opening), get "did you mean" on a wrong column, run it and watch it finish, see each step\'s rows and counts, browse, sort and filter the totals, download them as shown',
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

      // The rest of the chain from the catalogue, each step set up with the pickers of its form.
      const nodes = page.getByTestId('step-node');
      const inspector = page.getByRole('complementary', { name: 'Step settings' });
      const save = async () => {
        await inspector.getByRole('button', { name: 'Save settings' }).click();
        // Saved: nothing left to save.
        await inspector.getByRole('button', { name: 'Save settings', disabled: true }).waitFor();
      };
      await nodes.filter({ hasText: 'Import CSV' }).click();
      await page.getByRole('button', { name: 'Add step Filter rows' }).click();
      await nodes.nth(1).waitFor();
      // Opening the filter previews the never-run import on 100 records: its columns and rows show
      // beside the filter, and a column typed wrong is flagged with the one it likely meant.
      const data = page.getByTestId('step-data');
      await data.getByRole('tab', { name: 'Input' }).click();
      await data.getByTestId('step-data-count').getByText('40 rows · 3 columns').waitFor({ timeout: 30_000 });
      await inspector.getByLabel('Condition').fill("stauts = 'paid'");
      await inspector.getByTestId('unknown-column').getByText('The input has no column “stauts”: did you mean “status”?').waitFor();
      await inspector.getByLabel('Condition').fill("status = 'paid'");
      await inspector.getByTestId('unknown-column').waitFor({ state: 'hidden' });
      await save();

      // Group and summarise: the group column and the summary's column picked from the list.
      await page.getByRole('button', { name: 'Add step Group and summarise' }).click();
      await nodes.nth(2).waitFor();
      await inspector.getByRole('combobox', { name: 'Group by' }).click();
      const options = page.getByRole('listbox').getByRole('option');
      expect(await options.allTextContents()).toEqual(['regiontext', 'amountinteger', 'statustext']);
      await page.getByRole('option', { name: /^region/ }).click();
      await inspector.getByRole('combobox', { name: 'Column 1' }).click();
      await page.getByRole('option', { name: /^amount/ }).click();
      await inspector.getByRole('combobox', { name: 'Function 1' }).selectOption('sum');
      await inspector.getByRole('textbox', { name: 'Result column 1' }).fill('total');
      await save();

      // Sort rows by the new total, highest first: picked, then its arrow turned to descending.
      await page.getByRole('button', { name: 'Add step Sort rows' }).click();
      await nodes.nth(3).waitFor();
      await inspector.getByRole('combobox', { name: 'Sort by' }).click();
      expect(await options.allTextContents()).toEqual(['regiontext', 'totalinteger']);
      await page.getByRole('option', { name: /^total/ }).click();
      await inspector.getByRole('button', { name: 'total: in the default direction (change)' }).click();
      await inspector.getByRole('button', { name: 'total: ascending, smallest or A first (change)' }).click();
      await inspector.getByRole('button', { name: 'total: descending, largest or Z first (change)' }).waitFor();
      await save();

      await page.getByRole('button', { name: 'Add step Export CSV' }).click();
      await nodes.nth(4).waitFor();
      await inspector.getByLabel('File name').fill('totals.csv');
      await save();

      const steps = (await getWithToken(e2e.baseUrl, `/api/v1/workflow-steps?workflow_id=${workflowId}`, token)).body as StepJson[];
      const saved = (type: string) => steps.find((s) => s.step_type === type)!;
      expect(steps.map((s) => s.step_type).sort()).toEqual(['aggregate', 'export_csv', 'filter', 'import_csv', 'sort']);
      expect(saved('filter').param_inputs).toMatchObject({ condition: "status = 'paid'" });
      expect(saved('aggregate').param_inputs).toMatchObject({ group_by: ['region'], aggregations: [{ column: 'amount', function: 'sum', as: 'total' }] });
      expect(saved('sort').param_inputs).toMatchObject({ columns: [{ column: 'total', direction: 'descending' }] });
      expect(saved('aggregate').inputs).toEqual([saved('filter').id]);
      expect(saved('sort').inputs).toEqual([saved('aggregate').id]);

      // Run it and watch: the panel follows the run until every step has succeeded.
      await page.getByRole('button', { name: 'Run workflow' }).click();
      const panel = page.getByTestId('run-panel');
      await panel.getByTestId('run-state').getByText('Succeeded').waitFor({ timeout: 30_000 });
      await panel.getByText('5 of 5 steps finished').waitFor();
      expect(await page.getByTestId('step-run-row').count()).toBe(5);
      const sortedRow = panel.getByRole('group', { name: 'Sort rows' });
      await sortedRow.getByText('Succeeded').waitFor();
      // Each node on the canvas says how its step went, and how many rows it made (the SQL steps'
      // counts too, though their outputs were never written); each connection the rows it carried.
      expect(await nodes.filter({ hasText: 'Succeeded' }).count()).toBe(5);
      const paidCount = orders.slice(1).filter((line) => line.endsWith(',paid')).length;
      await nodes.filter({ hasText: 'Filter rows' }).getByText(`${paidCount} of ${paidCount}`).waitFor();
      await page.locator('.react-flow__edge-text').getByText(`${paidCount} rows`, { exact: true }).waitFor();

      // Each step's data beside it: its output's count, columns and first rows, and what it read.
      await nodes.filter({ hasText: 'Group and summarise' }).click();
      await data.getByRole('tab', { name: 'Output' }).click();
      await data.getByTestId('step-data-count').getByText('3 rows · 2 columns').waitFor();
      const firstRows = data.getByRole('table', { name: 'First rows' }).getByRole('row');
      await firstRows.nth(3).waitFor();
      expect(await firstRows.count()).toBe(4);
      await data.getByRole('tab', { name: 'Input' }).click();
      await data.getByTestId('step-data-count').getByText(`${paidCount} rows · 3 columns`).waitFor();

      // The sorted totals, in the dataset viewer: highest first, as the sort step left them.
      await sortedRow.getByRole('link', { name: 'Output dataset' }).click();
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
      const byTotal = [...expectedTotals].sort((a, b) => b[1] - a[1]);
      expect(shown.map((row) => row.find((cell) => expectedTotals.has(cell)))).toEqual(byTotal.map(([region]) => region));

      // Download the totals as CSV, as the grid shows them: sorted in the grid by region, then by
      // total again, highest first.
      const downloaded = async (name: string) => {
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
        const saved = `${e2e.stack.dataDir}/${name}`;
        await download.saveAs(saved);
        return fs.readFileSync(saved, 'utf8').trim().split('\n');
      };
      await page.getByRole('columnheader', { name: /^region/ }).click();
      await page.getByTestId('download-as-shown').waitFor();
      const byRegion = [...expectedTotals].sort((a, b) => (a[0] < b[0] ? -1 : 1));
      expect(await downloaded('totals-by-region.csv')).toEqual(['region,total', ...byRegion.map(([region, sum]) => `${region},${sum}`)]);
      const total = page.getByRole('columnheader', { name: /^total/ });
      await total.click();
      await total.click();
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
