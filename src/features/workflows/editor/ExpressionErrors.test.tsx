import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import en from '../../../../i18n/en.json';
import zh from '../../../../i18n/zh-CN.json';
import type { StepInfoOut } from '../../../../server/src/modules/step-infos/step-infos.schemas';
import type { StepOut } from '../../../../server/src/modules/steps/steps.schemas';
import { accountIn, api } from '../../../test/handlers';
import { renderApp } from '../../../test/renderWithProviders';
import { server } from '../../../test/server';
import { info, workflowWith } from './editorFixtures';
import '../../../test/opensEditor';

// The editor parses a filter's condition as it is typed, with the server's parser and words, so a
// broken one is named before anything is sent. What only the server can judge (a variable that
// does not exist) comes back as a 422 at param_inputs.condition in the request's language. Either
// way the user sees the message under Condition, and what they typed stays there to fix.

const filter: StepInfoOut = {
  ...info('filter', 'Filter rows', 'transform', 1, 1),
  params: [{ name: 'condition', type: 'expression', label: 'Condition', help: 'A SQL condition over the columns.', required: true }],
};
const load: StepOut = { id: 's-1', workflow_id: 'w-1', step_type: 'import_csv', name: 'Load sales', param_inputs: {}, inputs: [], position: { x: 0, y: 0 } };
const dutch: StepOut = {
  id: 's-2',
  workflow_id: 'w-1',
  step_type: 'filter',
  name: 'Dutch only',
  param_inputs: { condition: "country = 'NL'" },
  inputs: ['s-1'],
  position: { x: 0, y: 140 },
};

const BROKEN = "country = = 'NL' ((";
/** Parses, but names a variable the workflow does not have: only the server knows. */
const UNKNOWN_VARIABLE = 'amount > {{var.threshold}}';
/** The server's message for UNKNOWN_VARIABLE, from the catalog it renders it with. */
const noSuchVariable = (catalog: Record<string, string>) =>
  catalog['server.expressions.unknownVariable'].replace('{name}', 'threshold').replace('{position}', '10');

describe('a filter condition the server refuses', () => {
  let sent: unknown[] = [];
  let fetches = 0;

  beforeEach(() => {
    localStorage.setItem('accessToken', 'good');
    sent = [];
    fetches = 0;
    server.use(
      http.get(api('/workflows/w-1'), () => {
        fetches++;
        return HttpResponse.json(workflowWith([load, dutch]));
      }),
      http.get(api('/workflow-step-infos'), ({ request }) => {
        // Step type texts come in the request's language, as the server serves them.
        const chinese = (request.headers.get('accept-language') ?? '').startsWith('zh');
        const localised = chinese ? { ...filter, params: filter.params.map((p) => ({ ...p, label: '条件' })) } : filter;
        return HttpResponse.json({ items: [info('import_csv', 'Import CSV', 'source', 0, 0), localised], total: 2, page: 1, page_size: 200, ranking: 'text' });
      }),
      http.get(api('/workflow-step-infos/categories'), () => HttpResponse.json({ items: [] })),
      http.get(api('/workflows/w-1/variables'), () => HttpResponse.json({ items: [] })),
      http.post(api('/workflow-history/commits'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 50 })),
      http.get(api('/workflows/w-1/steps/:stepId/variable-fields'), () => HttpResponse.json({ variables: [], fields: [], notes: [], preview_step_ids: [] })),
      http.patch(api('/workflow-steps/s-2/param-inputs/partial'), async ({ request }) => {
        sent.push(await request.json());
        const chinese = (request.headers.get('accept-language') ?? '').startsWith('zh');
        return HttpResponse.json({ errors: [{ msg: noSuchVariable(chinese ? zh : en), loc: ['body', 'param_inputs', 'condition'] }] }, { status: 422 });
      }),
    );
  });

  const openCondition = async (label: string) => {
    const node = (await screen.findAllByTestId('step-node')).find((n) => n.getAttribute('aria-label') === 'Dutch only')!;
    // A click, not user.click: React Flow's drag handler needs a window on the mouse-down event, which jsdom leaves out.
    fireEvent.click(within(node).getByText('Dutch only'));
    const form = await screen.findByRole('form');
    const field = form.querySelector('[data-param="condition"]') as HTMLElement;
    return { form, field, condition: within(field).getByLabelText(new RegExp(label)) };
  };

  // Over Jest’s 5 s on a loaded machine: the editor rendered, a condition typed and checked as it is typed, 3–4.3 s here beside the other worker (2026-11-28).
  it.each([
    ['/workflows/w-1', 'en', 'Condition', 'Save settings', 'Unexpected “=” at position 11'],
    ['/cn/workflows/w-1', 'cn', '条件', '保存设置', '第 11 个字符处出现意外的 “=”'],
  ] as const)(
    'at %s: names the mistake under Condition as it is typed, and sends nothing',
    async (route, locale, label, save, message) => {
      server.use(accountIn(locale));
      const { user } = renderApp({ route });
      const { form, field, condition } = await openCondition(label);

      await user.clear(condition);
      await user.type(condition, BROKEN);
      expect(await within(field).findByText(message)).toBeInTheDocument();
      expect(condition).toHaveAttribute('aria-invalid', 'true');
      await user.click(within(form).getByRole('button', { name: save }));
      expect(sent).toEqual([]);
      expect(condition).toHaveValue(BROKEN);
    },
    15_000,
  );

  // Over Jest’s 5 s on a loaded machine: the editor rendered, a condition typed, saved and refused, 3–4.3 s here beside the other worker (2026-11-28).
  it.each([
    ['/workflows/w-1', 'en', 'Condition', 'Save settings', 'There is no variable “threshold” (at position 10)'],
    ['/cn/workflows/w-1', 'cn', '条件', '保存设置', '没有变量 “threshold”（第 10 个字符处）'],
  ] as const)(
    'at %s: shows what the server refuses under Condition after Save and keeps what was typed',
    async (route, locale, label, save, message) => {
      server.use(accountIn(locale));
      const { user } = renderApp({ route });
      const { form, field, condition } = await openCondition(label);

      await user.clear(condition);
      // user.type reads "{{" as a literal "{".
      await user.type(condition, UNKNOWN_VARIABLE.replace(/\{/g, '{{'));
      const fetchesBefore = fetches;
      await user.click(within(form).getByRole('button', { name: save }));

      expect(await within(field).findByText(message)).toBeInTheDocument();
      expect(sent).toEqual([{ param_inputs: { condition: UNKNOWN_VARIABLE } }]);
      expect(condition).toHaveAttribute('aria-invalid', 'true');
      // A refused write refetches the workflow (to show the truth); the form keeps the refused value
      // and the message, so the user fixes what they typed instead of typing it again.
      await waitFor(() => expect(fetches).toBeGreaterThan(fetchesBefore));
      const after = screen.getByRole('form').querySelector('[data-param="condition"]') as HTMLElement;
      expect(within(after).getByLabelText(new RegExp(label))).toHaveValue(UNKNOWN_VARIABLE);
      expect(within(after).getByText(message)).toBeInTheDocument();
    },
    15_000,
  );
});
