import fs from 'node:fs';
import path from 'node:path';
import { logInViaApi, newAccount, sendWithToken, signUpViaApi } from './support/api';
import { useE2E } from './support/stack';
import { signedInPage } from './support/ui';

// Makes the README's picture of the editor (docs/images/editor.png) from the product as it is:
// `README_SCREENSHOT=1 npx jest --selectProjects e2e --testPathPatterns readme-screenshot`.
// Skipped otherwise, so that a test run never rewrites the docs.

const e2e = useE2E();
const describeWhenAsked = process.env.README_SCREENSHOT === '1' ? describe : describe.skip;

describeWhenAsked('the README screenshot', () => {
  e2e.test('the editor with a branching workflow and a step open', async () => {
    const token = await logInViaApi(e2e.baseUrl, await signUpViaApi(e2e.baseUrl, newAccount({ name: 'Ada Lovelace' })));
    const api = (method: string, pathname: string, body?: unknown) => sendWithToken(e2e.baseUrl, token, method, `/api/v1${pathname}`, body);
    const upload = (name: string, text: string) => {
      const form = new FormData();
      form.append('file', new Blob([text], { type: 'text/csv' }), name);
      return api('POST', '/files/', form).then((answer) => (answer.items as { id: string }[])[0].id);
    };
    const orders = await upload('orders.csv', 'order_id,customer_id,amount,status\n1,7,120,paid\n');
    const customers = await upload('customers.csv', 'customer_id,name,country\n7,Ada,NL\n');
    const workflow = await api('POST', '/workflows/', {
      name: 'Paid orders by country',
      description: 'Weekly revenue per country from paid orders.',
      tags: ['sales', 'weekly'],
    });
    const step = async (type: string, name: string, x: number, y: number, inputs: unknown[] = [], params: Record<string, unknown> = {}) =>
      (await api('POST', '/workflow-steps/', { workflow_id: workflow.id, step_type: type, name, inputs, position: { x, y }, param_inputs: params })).id;
    const ordersStep = await step('import_csv', 'Orders', 0, 0, [], { file: orders });
    const customersStep = await step('import_csv', 'Customers', 320, 0, [], { file: customers });
    const paid = await step('filter', 'Paid only', 0, 170, [ordersStep], { condition: "status = 'paid' and amount > 0" });
    const joined = await step('join', 'With customer', 160, 340, [paid, customersStep], { left_on: ['customer_id'], right_on: ['customer_id'] });
    const grouped = await step('aggregate', 'Revenue by country', 160, 510, [joined]);
    await step('export_csv', 'Save report', 160, 680, [grouped], { file_name: 'revenue.csv' });

    const page = await signedInPage(e2e, token);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/workflows/${workflow.id as string}`);
    await page.getByTestId('step-node').nth(5).waitFor();
    await page.locator('.react-flow__node', { hasText: 'Paid only' }).click();
    await page.getByRole('complementary', { name: 'Step settings' }).getByLabel('Condition').waitFor();
    await page.waitForLoadState('networkidle');
    const file = path.resolve(__dirname, '../docs/images/editor.png');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await page.screenshot({ path: file });
  });
});
