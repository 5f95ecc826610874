import os from 'node:os';
import path from 'node:path';
import { getWithToken, logInViaApi, newAccount, sendWithToken, signUpViaApi } from './support/api';
import { useE2E } from './support/stack';
import { lowContrastTexts } from './support/audit';
import { editorWithOneStep, pathOf, seeNotice, signedInPage, useTheme } from './support/ui';

const e2e = useE2E();

interface StepJson {
  id: string;
  name: string;
  step_type: string;
  inputs: string[];
  param_inputs: Record<string, unknown>;
}

async function stepsOf(token: string, workflowId: string): Promise<StepJson[]> {
  const res = await getWithToken(e2e.baseUrl, `/api/v1/workflow-steps?workflow_id=${workflowId}`, token);
  expect(res.status).toBe(200);
  return res.body as StepJson[];
}

/** Waits until the server's copy of the workflow satisfies `check` (writes land asynchronously). */
async function until(token: string, workflowId: string, check: (steps: StepJson[]) => boolean): Promise<StepJson[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const steps = await stepsOf(token, workflowId);
    if (check(steps) || Date.now() > deadline) return steps;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('workflow builder', () => {
  e2e.test(
    'build a workflow, edit, undo/redo, restore, publish; others find it in the gallery and clone it',
    async () => {
      const author = await signUpViaApi(e2e.baseUrl, newAccount({ name: 'Katherine Johnson' }));
      const token = await logInViaApi(e2e.baseUrl, author);
      const page = await signedInPage(e2e, token);

      // Create from the list.
      await page.goto('/workflows');
      await page.getByText('Build your first workflow').waitFor();
      await page.getByRole('button', { name: 'New workflow' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Name').fill('Orbit clean-up');
      await dialog.getByLabel('Tags').fill('nasa, orbits');
      await dialog.getByRole('button', { name: 'Create and open' }).click();
      await page.waitForURL(/\/workflows\/[0-9a-f-]{36}$/);
      const workflowId = pathOf(page).split('/').pop()!;
      await page.getByRole('button', { name: 'Rename Orbit clean-up' }).waitFor();

      // Three steps from the catalogue: each is added after the selected one, connected.
      const nodes = page.getByTestId('step-node');
      await page.getByRole('button', { name: 'Add step Import CSV' }).click();
      await nodes.nth(0).waitFor();
      await page.getByRole('button', { name: 'Add step Filter rows' }).click();
      await nodes.nth(1).waitFor();
      // Search by meaning: plain words find the deduplicate step.
      await page.getByRole('searchbox', { name: 'Search steps' }).fill('remove duplicate rows');
      await page.getByRole('list', { name: 'Matching steps' }).getByRole('button', { name: 'Add step Remove duplicates' }).first().click();
      await nodes.nth(2).waitFor();
      let steps = await until(token, workflowId, (s) => s.length === 3);
      const [csv, filter, dedupe] = ['import_csv', 'filter', 'deduplicate'].map((type) => steps.find((s) => s.step_type === type)!);
      expect(filter.inputs).toEqual([csv.id]);
      expect(dedupe.inputs).toEqual([filter.id]);

      // Set params on the filter step through its generated form.
      await page.locator('.react-flow__node', { hasText: 'Filter rows' }).click();
      const inspector = page.getByRole('complementary', { name: 'Step settings' });
      await inspector.getByLabel('Condition').fill("status = 'paid'");
      await inspector.getByLabel('Matching rows').selectOption('remove');
      await inspector.getByRole('button', { name: 'Save settings' }).click();
      steps = await until(token, workflowId, (s) => s.find((x) => x.id === filter.id)?.param_inputs.condition === "status = 'paid'");
      expect(steps.find((x) => x.id === filter.id)!.param_inputs).toMatchObject({ condition: "status = 'paid'", mode: 'remove' });

      // Undo with the button, redo with the keyboard (outside any text field).
      await page.getByRole('button', { name: 'Undo', exact: true }).click();
      await seeNotice(page, /Undid: Changed the settings of Filter rows/);
      steps = await until(token, workflowId, (s) => s.find((x) => x.id === filter.id)?.param_inputs.condition === undefined);
      expect(steps.find((x) => x.id === filter.id)!.param_inputs.condition).toBeUndefined();
      await page.locator('.react-flow__pane').click();
      await page.keyboard.press('Control+Shift+Z');
      await seeNotice(page, /Redid: Changed the settings of Filter rows/);
      await until(token, workflowId, (s) => s.find((x) => x.id === filter.id)?.param_inputs.condition === "status = 'paid'");
      expect(await page.getByRole('button', { name: 'Redo', exact: true }).isDisabled()).toBe(true);

      // Restore the commit that added the filter (#3): two steps, as a new change.
      // The side panel's tab (the run panel below the canvas has tabs of its own).
      await page.locator('aside').first().getByRole('tab', { name: 'History', exact: true }).click();
      await page.getByRole('button', { name: 'Restore version 3' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Restore' }).click();
      await seeNotice(page, /Restored #3/);
      steps = await until(token, workflowId, (s) => s.length === 2);
      expect(steps.map((s) => s.step_type).sort()).toEqual(['filter', 'import_csv']);
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="step-node"]').length === 2);

      // Publish: the dialog says what will be public first.
      await page.getByText('Publish', { exact: true }).click();
      await page.getByRole('dialog', { name: 'Publish to the gallery' }).getByRole('button', { name: 'Publish', exact: true }).click();
      await seeNotice(page, 'Published to the gallery.');

      // Anyone can see it in the gallery, signed out.
      const visitor = await e2e.newPage();
      await visitor.goto('/gallery');
      const card = visitor.getByRole('listitem', { name: 'Orbit clean-up' });
      await card.waitFor();
      await card.getByText('by Katherine Johnson').waitFor();
      await card.getByText('2 steps').waitFor();
      await card.getByRole('link', { name: 'Sign in to clone' }).waitFor();

      // Another user clones it into their account and lands in the copy's editor.
      const other = await signUpViaApi(e2e.baseUrl, newAccount({ name: 'Dorothy Vaughan' }));
      const otherToken = await logInViaApi(e2e.baseUrl, other);
      const otherPage = await signedInPage(e2e, otherToken);
      await otherPage.goto('/gallery');
      await otherPage.getByRole('button', { name: 'Clone Orbit clean-up' }).click();
      await seeNotice(otherPage, 'Workflow copied to your account.');
      await otherPage.waitForURL((url) => /^\/workflows\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(workflowId));
      await otherPage.getByRole('button', { name: 'Rename Copy of Orbit clean-up' }).waitFor();
      await otherPage.waitForFunction(() => document.querySelectorAll('[data-testid="step-node"]').length === 2);
      const copyId = pathOf(otherPage).split('/').pop()!;
      expect((await stepsOf(otherToken, copyId)).length).toBe(2);
      // The original stays the author's.
      expect((await getWithToken(e2e.baseUrl, `/api/v1/workflows/${workflowId}`, otherToken)).status).toBe(404);
    },
    120_000,
  );
});

describe('unsaved step settings', () => {
  e2e.test('a filter condition typed but not saved survives a reload, marked unsaved, and Save keeps it', async () => {
    const token = await logInViaApi(e2e.baseUrl, await signUpViaApi(e2e.baseUrl, newAccount()));
    const page = await signedInPage(e2e, token);
    await editorWithOneStep(page, 'Drafts survive');
    const workflowId = pathOf(page).split('/').pop()!;
    await page.getByRole('button', { name: 'Add step Filter rows' }).click();
    const filterNode = page.locator('.react-flow__node', { hasText: 'Filter rows' });
    await filterNode.waitFor();
    await filterNode.click();
    const inspector = page.getByRole('complementary', { name: 'Step settings' });
    await inspector.getByLabel('Condition').fill("status = 'paid'");
    await inspector.getByText('Unsaved changes').waitFor();

    await page.reload();
    // The card says the step holds unsaved settings; opening it shows them, still unsaved.
    await filterNode.getByTestId('step-unsaved').waitFor();
    expect(await filterNode.getByTestId('step-unsaved').getAttribute('title')).toBe('This step has settings that are not saved yet.');
    await filterNode.click();
    expect(await inspector.getByLabel('Condition').inputValue()).toBe("status = 'paid'");
    await inspector.getByText('Unsaved changes').waitFor();
    expect((await stepsOf(token, workflowId)).find((s) => s.step_type === 'filter')!.param_inputs.condition).toBeUndefined();

    await inspector.getByRole('button', { name: 'Save settings' }).click();
    const steps = await until(token, workflowId, (s) => s.find((x) => x.step_type === 'filter')?.param_inputs.condition === "status = 'paid'");
    expect(steps.find((s) => s.step_type === 'filter')!.param_inputs.condition).toBe("status = 'paid'");
    await inspector.getByText('Unsaved changes').waitFor({ state: 'detached' });
    await filterNode.getByTestId('step-unsaved').waitFor({ state: 'detached' });

    // Saved: after another reload there is nothing left to restore.
    await page.reload();
    await filterNode.waitFor();
    await filterNode.click();
    expect(await inspector.getByLabel('Condition').inputValue()).toBe("status = 'paid'");
    expect(await filterNode.getByTestId('step-unsaved').count()).toBe(0);
    expect(await inspector.getByText('Unsaved changes').count()).toBe(0);
  });
});

describe('workflow editor layout and theme', () => {
  e2e.test('the editor fills the screen exactly: no page scroll, toolbar and canvas controls in view', async () => {
    const token = await logInViaApi(e2e.baseUrl, await signUpViaApi(e2e.baseUrl, newAccount()));
    const page = await signedInPage(e2e, token);
    await editorWithOneStep(page, 'Fits the screen');
    for (const viewport of [
      { width: 1366, height: 850 },
      { width: 1920, height: 1080 },
    ]) {
      await page.setViewportSize(viewport);
      for (const tab of ['Steps', 'History']) {
        await page.locator('aside').first().getByRole('tab', { name: tab, exact: true }).click();
        // The tab's content is on screen (the history is fetched when its tab opens).
        await (
          tab === 'Steps'
            ? page.getByRole('button', { name: 'Add step Import CSV' })
            : page.getByRole('list', { name: 'History', exact: true }).getByRole('listitem').first()
        ).waitFor();
        const sizes = await page.evaluate(() => {
          const controls = document.querySelector('.react-flow__controls')!.getBoundingClientRect();
          return {
            scrollHeight: document.scrollingElement!.scrollHeight,
            innerHeight: window.innerHeight,
            controlsBottom: controls.bottom,
            controlsTop: controls.top,
          };
        });
        const undo = (await page.getByRole('button', { name: 'Undo', exact: true }).boundingBox())!;
        const where = `${viewport.width}x${viewport.height} on ${tab}`;
        expect({ where, fits: sizes.scrollHeight <= sizes.innerHeight }).toEqual({ where, fits: true });
        expect({ where, controlsInView: sizes.controlsTop >= 0 && sizes.controlsBottom <= sizes.innerHeight }).toEqual({ where, controlsInView: true });
        expect({ where, toolbarInView: undo.y >= 0 && undo.y + undo.height <= sizes.innerHeight }).toEqual({ where, toolbarInView: true });
      }
    }
  });

  e2e.test('a long workflow name is cut with an ellipsis: the badges never cover undo/redo or the publish switch', async () => {
    const token = await logInViaApi(e2e.baseUrl, await signUpViaApi(e2e.baseUrl, newAccount()));
    const page = await signedInPage(e2e, token);
    await editorWithOneStep(page, 'Short');
    await page.setViewportSize({ width: 1366, height: 850 });
    const long = 'Quarterly revenue reconciliation '.repeat(16).trim();
    await page.getByRole('button', { name: 'Rename Short' }).click();
    const input = page.getByRole('textbox', { name: 'Workflow name' });
    await input.fill(long);
    await page.getByText('A name can have at most 200 characters.').waitFor();
    await input.press('Enter');
    const rename = page.getByRole('button', { name: `Rename ${long.slice(0, 200)}` });
    await rename.waitFor();
    expect(await rename.getAttribute('title')).toBe(long.slice(0, 200));
    await page.getByText('Publish', { exact: true }).click();
    await page.getByRole('dialog', { name: 'Publish to the gallery' }).getByRole('button', { name: 'Publish', exact: true }).click();
    await seeNotice(page, 'Published to the gallery.');

    const box = async (name: string | RegExp) => (await page.getByText(name, { exact: true }).first().boundingBox())!;
    const published = await box('Published');
    const version = (await page.locator('[title="Version: grows with every change"]').boundingBox())!;
    const undo = (await page.getByRole('button', { name: 'Undo', exact: true }).boundingBox())!;
    // The badges end before the controls start; the name gave up the room.
    expect(Math.max(published.x + published.width, version.x + version.width)).toBeLessThanOrEqual(undo.x);
  });

  e2e.test('opening the settings of a step at the edge keeps that step in view', async () => {
    const token = await logInViaApi(e2e.baseUrl, await signUpViaApi(e2e.baseUrl, newAccount()));
    const workflow = await sendWithToken(e2e.baseUrl, token, 'POST', '/api/v1/workflows/', { name: 'Wide' });
    let previous: string | undefined;
    // A chain laid out left to right: Fit View spreads it over the whole canvas.
    for (const [i, type] of ['import_csv', 'filter', 'deduplicate', 'sort', 'limit'].entries()) {
      const step = await sendWithToken(e2e.baseUrl, token, 'POST', '/api/v1/workflow-steps/', {
        workflow_id: workflow.id,
        step_type: type,
        inputs: previous ? [previous] : [],
        position: { x: i * 320, y: 0 },
      });
      previous = step.id as string;
    }
    const page = await signedInPage(e2e, token);
    await page.setViewportSize({ width: 1366, height: 850 });
    await page.goto(`/workflows/${workflow.id as string}`);
    const last = page.getByTestId('step-node').nth(4);
    await last.waitFor();
    await last.click();
    await page.getByRole('complementary', { name: 'Step settings' }).waitFor();
    // The canvas narrowed for the settings panel; the step moves back into view (animated).
    await page.waitForFunction(() => {
      const canvas = document.querySelector('[role="region"] .react-flow')!.getBoundingClientRect();
      const node = document.querySelectorAll('[data-testid="step-node"]')[4].getBoundingClientRect();
      return node.left >= canvas.left && node.right <= canvas.right && node.top >= canvas.top && node.bottom <= canvas.bottom;
    });
  });

  e2e.test('dark mode: step cards, zoom controls and minimap follow the theme', async () => {
    const token = await logInViaApi(e2e.baseUrl, await signUpViaApi(e2e.baseUrl, newAccount()));
    const page = await signedInPage(e2e, token);
    await useTheme(page, e2e.baseUrl, token, 'dark');
    await editorWithOneStep(page, 'In the dark');
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    const canvas = page.getByRole('region', { name: 'Workflow canvas' });
    await canvas.screenshot({ path: path.join(os.tmpdir(), `stepwise-canvas-dark-${process.pid}.png`) });

    // Every text on the canvas (step titles, types) reads against its card.
    expect(await lowContrastTexts(page)).toEqual([]);
    const controls = await page.evaluate(() => getComputedStyle(document.querySelector('.react-flow__controls-button')!).backgroundColor);
    expect(luminance(controls)).toBeLessThan(0.2);
  });
});

/** "rgb(r, g, b)" / "rgba(...)" / "color(srgb r g b)" to 0-255 channels. */
function channels(css: string): [number, number, number] {
  const srgb = css.match(/color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)/);
  if (srgb) return [Number(srgb[1]) * 255, Number(srgb[2]) * 255, Number(srgb[3]) * 255];
  const rgb = css.match(/rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)/);
  if (!rgb) throw new Error(`Unexpected colour ${css}`);
  return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
}

/** WCAG relative luminance. */
function luminance(css: string): number {
  const [r, g, b] = channels(css).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
