import type { Page } from 'playwright-core';
import { startLlmServer, textOf, type ChatRequestSeen, type LlmServer } from '../server/src/test/llm-server';
import { getWithToken, logInViaApi, newAccount, signUpViaApi } from './support/api';
import { useE2E, type E2E } from './support/stack';
import { pathOf, signedInPage } from './support/ui';

// The editor's assistant, against a local OpenAI-compatible stand-in (a real HTTP server speaking
// the real protocol, scripted): ask the coordinator for a 3-step workflow, watch it answer, see the
// steps on the canvas, undo them with the card's button. And without a model, the warning modal.

interface StepJson {
  id: string;
  name: string;
  step_type: string;
  inputs: string[];
}

/** What the tools answered so far in this request (the `tool` messages), parsed. */
const toolOutputs = (request: ChatRequestSeen) =>
  request.messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(textOf(m.content)) as { step?: StepJson });

const FINAL_TEXT =
  'I built **three steps**: the leads are loaded, big deals kept, and sorted biggest first. Undo it from the card if it is not what you wanted.';

/** A new account's new workflow, created from the list, open in the editor on its Assistant tab. */
async function assistantOfNewWorkflow(e2e: E2E, name: string): Promise<{ page: Page; token: string; workflowId: string }> {
  const token = await logInViaApi(e2e.baseUrl, await signUpViaApi(e2e.baseUrl, newAccount({ name: 'Grace Hopper' })));
  const page = await signedInPage(e2e, token);
  await page.goto('/workflows');
  await page.getByText('Build your first workflow').waitFor();
  await page.getByRole('button', { name: 'New workflow' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create and open' }).click();
  await page.waitForURL(/\/workflows\/[0-9a-f-]{36}$/);
  await page.getByRole('tab', { name: 'Assistant' }).click();
  await page.getByRole('textbox', { name: 'Message' }).waitFor();
  return { page, token, workflowId: pathOf(page).split('/').pop()! };
}

describe('the workflow assistant', () => {
  let llm: LlmServer;
  const e2e = useE2E(async () => {
    llm = await startLlmServer();
    return { ...llm.env, IN_PROCESS_WORKER: 'true' };
  });
  afterAll(async () => {
    await llm?.close();
  });

  e2e.test(
    'asks the coordinator for a 3-step workflow: the answer streams in, the steps appear on the canvas as one commit, and Undo takes them away',
    async () => {
      let seeMidStream = () => {};
      const midStreamSeen = new Promise<void>((resolve) => (seeMidStream = resolve));
      // The model's side of the turn: three add_step calls, then connect_steps between the steps they
      // made (ids only the tools' answers know), then a text streamed in small pieces. The stand-in
      // numbers its tool calls afresh in each answer (call_1…), as some real servers do.
      llm.queue(
        {
          toolCalls: [
            { name: 'add_step', args: { step_type: 'import_csv', name: 'Load leads' } },
            { name: 'add_step', args: { step_type: 'filter', name: 'Big deals' } },
            { name: 'add_step', args: { step_type: 'sort', name: 'Biggest first' } },
          ],
        },
        (request) => {
          const [load, filter, sort] = toolOutputs(request).map((o) => o.step!.id);
          return {
            toolCalls: [
              { name: 'connect_steps', args: { from_step_id: load, to_step_id: filter } },
              { name: 'connect_steps', args: { from_step_id: filter, to_step_id: sort } },
            ],
          };
        },
        // The text stops after "I built **three steps**:" until the test has seen it mid-stream.
        { text: FINAL_TEXT, chunkSize: 6, delayMs: 60, pause: { at: 24, until: midStreamSeen } },
      );
      const { page, token, workflowId } = await assistantOfNewWorkflow(e2e, 'Lead pipeline');
      const nodes = page.getByTestId('step-node');
      expect(await nodes.count()).toBe(0);

      await page.getByRole('textbox', { name: 'Message' }).fill('Load leads.csv, keep the big deals and sort them, biggest first.');
      await page.getByRole('button', { name: 'Send' }).click();
      const log = page.getByRole('log', { name: 'Messages' });

      // The tool cards say what each call did, in words.
      const tools = log.getByTestId('tool-call');
      await tools.filter({ hasText: 'Added step Load leads' }).waitFor();
      await tools.filter({ hasText: 'Added step Biggest first' }).waitFor();
      await tools.filter({ hasText: 'Connected Big deals → Biggest first' }).waitFor();
      // The text streams in: part of it is on screen while Stop still stands for Send.
      const answer = log.getByTestId('chat-message').filter({ hasText: 'I built' });
      await answer.waitFor();
      expect(await page.getByRole('button', { name: 'Stop' }).isVisible()).toBe(true);
      expect((await answer.textContent()) ?? '').not.toContain('Undo it from the card');
      seeMidStream();
      await log.getByText('three steps', { exact: true }).waitFor();
      await answer.getByText(/Undo it from the card if it is not what you wanted\./).waitFor();
      await page.getByRole('button', { name: 'Send' }).waitFor();
      // Each card joined its own result, in the order the calls were made.
      expect(await tools.allTextContents()).toEqual([
        'Added step Load leads',
        'Added step Big deals',
        'Added step Biggest first',
        'Connected Load leads → Big deals',
        'Connected Big deals → Biggest first',
      ]);
      expect(await log.locator('[data-testid=tool-call][data-state=done]').count()).toBe(5);

      // One commit, with its changes, and the three steps on the canvas as the user sees them.
      const card = log.getByTestId('commit-card');
      await card.getByText('Added 3 step(s), connected 2').waitFor();
      const changes = card.getByRole('list', { name: 'Changes' }).getByRole('listitem');
      expect(await changes.allTextContents()).toEqual([
        'Added step Load leads',
        'Added step Big deals',
        'Added step Biggest first',
        'Connected Load leads → Big deals',
        'Connected Big deals → Biggest first',
      ]);
      await nodes.nth(2).waitFor();
      expect((await nodes.evaluateAll((all) => all.map((n) => n.getAttribute('aria-label')))).sort()).toEqual(['Big deals', 'Biggest first', 'Load leads']);
      await nodes.filter({ hasText: 'Load leads' }).getByText('Import CSV').waitFor();
      const saved = (await getWithToken(e2e.baseUrl, `/api/v1/workflow-steps?workflow_id=${workflowId}`, token)).body as StepJson[];
      const byName = new Map(saved.map((s) => [s.name, s]));
      expect(byName.get('Big deals')!.inputs).toEqual([byName.get('Load leads')!.id]);
      expect(byName.get('Biggest first')!.inputs).toEqual([byName.get('Big deals')!.id]);

      // Undo on the card: the steps leave the canvas and the workflow.
      await card.getByRole('button', { name: 'Undo: Added 3 step(s), connected 2' }).click();
      await card.getByText('Undone').waitFor();
      await nodes.first().waitFor({ state: 'detached' });
      expect(await nodes.count()).toBe(0);
      expect((await getWithToken(e2e.baseUrl, `/api/v1/workflow-steps?workflow_id=${workflowId}`, token)).body).toEqual([]);
      // The model was offered the coordinator's tools and read the user's words.
      expect(llm.requests.at(-3)!.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['add_step', 'connect_steps']));
      expect(textOf(llm.requests.at(-3)!.messages.at(-1)!.content)).toContain('biggest first');
    },
    90_000,
  );
});

describe('the workflow assistant without a model', () => {
  const e2e = useE2E({ IN_PROCESS_WORKER: 'true' });

  e2e.test('says how to connect a model, in a warning modal, and keeps the message', async () => {
    const { page } = await assistantOfNewWorkflow(e2e, 'No model here');
    const input = page.getByRole('textbox', { name: 'Message' });
    await input.fill('Build me something');
    await page.getByRole('button', { name: 'Send' }).click();
    // A warning: an alert dialog, only a button closes it.
    const modal = page.getByRole('alertdialog').filter({ hasText: 'Agents and AI steps need a chat model' });
    await modal.waitFor();
    await modal.getByText('Warning', { exact: true }).waitFor();
    await modal.getByText(/LLM_BASE_URL/).waitFor();
    await modal.getByRole('button', { name: 'OK' }).click();
    await modal.waitFor({ state: 'detached' });
    expect(await input.inputValue()).toBe('Build me something');
  });
});
