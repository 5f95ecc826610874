import { logInViaApi, newAccount, signUpViaApi } from './support/api';
import { useE2E } from './support/stack';
import { pathOf, seeNotice, signedInPage, signInWithForm, waitForPath } from './support/ui';

const e2e = useE2E();

/** An authenticated JSON call, for arranging the workflow a journey starts from. */
async function send(token: string, method: string, pathname: string, body?: object): Promise<{ id: string }> {
  const res = await fetch(`${e2e.baseUrl}/api/v1${pathname}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (res.status >= 300) throw new Error(`${method} ${pathname}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string };
}

describe('gallery copy and preview', () => {
  e2e.test(
    'publish, edit, see that the gallery is behind, update it; a visitor previews the new copy and signs in to clone it',
    async () => {
      const author = await signUpViaApi(e2e.baseUrl, newAccount({ name: 'Caroline Herschel' }));
      const token = await logInViaApi(e2e.baseUrl, author);
      const workflow = await send(token, 'POST', '/workflows', { name: 'Comet tracker', description: 'Finds bright comets.', tags: ['astronomy'] });
      const load = await send(token, 'POST', '/workflow-steps', {
        workflow_id: workflow.id,
        step_type: 'import_csv',
        name: 'Load comets',
        position: { x: 0, y: 0 },
      });
      await send(token, 'POST', '/workflow-steps', {
        workflow_id: workflow.id,
        step_type: 'filter',
        name: 'Bright ones',
        inputs: [load.id],
        param_inputs: { condition: 'magnitude < 6' },
        position: { x: 0, y: 160 },
      });

      // Publishing shows what will be public before anything is.
      const page = await signedInPage(e2e, token);
      await page.goto(`/workflows/${workflow.id}`);
      await page.getByRole('button', { name: 'Rename Comet tracker' }).waitFor();
      await page.getByText('Publish', { exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Publish to the gallery' });
      const shown = dialog.getByLabel('What will be public');
      await shown.getByText('Comet tracker', { exact: true }).waitFor();
      await shown.getByText('Finds bright comets.').waitFor();
      await shown.getByText('2 steps').waitFor();
      await dialog.getByText(/Secret values and your files and datasets are never shared/).waitFor();
      await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
      await seeNotice(page, 'Published to the gallery.');
      expect(await page.getByTestId('gallery-outdated').count()).toBe(0);

      // A rename is private until the gallery copy is updated, and the editor says so.
      await page.getByRole('button', { name: 'Rename Comet tracker' }).click();
      await page.getByRole('textbox', { name: 'Workflow name' }).fill('Comet tracker II');
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Rename Comet tracker II' }).waitFor();
      const outdated = page.getByTestId('gallery-outdated');
      await outdated.getByText('Gallery shows an older version').waitFor();
      expect(await outdated.getAttribute('title')).toBe('The gallery shows version 3; you are on version 4.');

      await page.getByRole('button', { name: 'Update the gallery copy' }).click();
      const update = page.getByRole('dialog', { name: 'Update the gallery copy' });
      await update.getByText(/The gallery shows version 3; you are on version 4\./).waitFor();
      await update.getByText('Comet tracker II', { exact: true }).waitFor();
      await update.getByRole('button', { name: 'Update', exact: true }).click();
      await seeNotice(page, 'Published to the gallery.');
      await outdated.waitFor({ state: 'detached' });

      // A visitor opens the card's preview: the new name, the graph and the steps' settings.
      const visitor = await e2e.newPage();
      await visitor.goto('/gallery');
      const card = visitor.getByRole('listitem', { name: 'Comet tracker II' });
      await card.waitFor();
      await card.getByRole('link', { name: 'Preview Comet tracker II' }).click();
      await waitForPath(visitor, `/gallery/${workflow.id}`);
      await visitor.getByRole('heading', { level: 1, name: 'Comet tracker II' }).waitFor();
      const graph = visitor.getByRole('region', { name: 'Workflow graph (read-only)' });
      await visitor.waitForFunction(() => document.querySelectorAll('[data-testid="step-node"]').length === 2);
      // One connection (a vertical line has no width, so Playwright calls it hidden: attached it is).
      await graph.locator('.react-flow__edge').first().waitFor({ state: 'attached' });
      expect(await graph.locator('.react-flow__edge').count()).toBe(1);
      const bright = visitor.getByRole('list', { name: 'Steps' }).getByRole('listitem', { name: 'Bright ones' });
      await bright.getByText('magnitude < 6').waitFor();
      await bright.getByText('Keep', { exact: true }).waitFor();
      await bright.getByText('Reads from Load comets').waitFor();

      // Read-only: dragging a step does not move it (the whole view may pan, the steps keep their places).
      const node = graph.locator('.react-flow__node', { hasText: 'Bright ones' });
      const first = graph.locator('.react-flow__node', { hasText: 'Load comets' });
      const offset = async () => {
        const [a, b] = [(await node.boundingBox())!, (await first.boundingBox())!];
        return { x: Math.round(a.x - b.x), y: Math.round(a.y - b.y) };
      };
      const before = await offset();
      const start = (await node.boundingBox())!;
      await node.hover();
      await visitor.mouse.down();
      await visitor.mouse.move(start.x + 200, start.y + 120, { steps: 5 });
      await visitor.mouse.up();
      expect(await offset()).toEqual(before);
      // Picking a step on the graph points at its settings.
      await node.click();
      await visitor.waitForFunction(() => document.querySelector('li[aria-label="Bright ones"]')?.getAttribute('aria-current') === 'true');

      // Signing in from the preview comes back to it, now with Clone.
      const other = await signUpViaApi(e2e.baseUrl, newAccount({ name: 'Maria Mitchell' }));
      await visitor.getByRole('link', { name: 'Sign in to clone' }).click();
      await waitForPath(visitor, '/login');
      await signInWithForm(visitor, other.email, other.password);
      await waitForPath(visitor, `/gallery/${workflow.id}`);
      await visitor.getByRole('button', { name: 'Clone Comet tracker II' }).click();
      await seeNotice(visitor, 'Workflow copied to your account.');
      await visitor.waitForURL((url) => /^\/workflows\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(workflow.id));
      await visitor.getByRole('button', { name: 'Rename Copy of Comet tracker II' }).waitFor();
      expect(pathOf(visitor)).not.toContain(workflow.id);
    },
    120_000,
  );
});
