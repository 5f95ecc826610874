import { useState, type ComponentProps } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ParamOut, StepInfoOut } from '../../../server/src/modules/step-infos/step-infos.schemas';
import type { StepOut } from '../../../server/src/modules/steps/steps.schemas';
import { datasetOut } from '../../test/datasets';
import { api } from '../../test/handlers';
import { renderWithProviders } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import type { VariableFields } from '../variables/variablesApi';
import { ParamForm } from './ParamForm';
import { StepInspector } from './StepInspector';

const p = (name: string, type: ParamOut['type'], extra: Partial<ParamOut> = {}): ParamOut => ({
  name,
  type,
  label: `${name} label`,
  help: `${name} help`,
  required: false,
  ...extra,
});

const everyType: ParamOut[] = [
  p('title', 'string', { required: true }),
  p('count', 'number', { min: 1, max: 10, integer: true }),
  p('enabled', 'boolean'),
  p('mode', 'enum', { options: ['keep', 'remove'] }),
  p('column', 'column'),
  p('columns', 'columns'),
  p('condition', 'expression'),
  p('script', 'code'),
  p('prompt', 'template'),
  p('file', 'file'),
  p('dataset', 'dataset'),
  p('token', 'secret'),
  p('mapping', 'json'),
];

const fieldOf = (name: string) => document.querySelector(`[data-param="${name}"]`) as HTMLElement;

/** Column pickers take text by paste: user-event's keystrokes into Zag's combobox drop letters in
 *  jsdom (not in Chromium, where the journeys type into them key by key). */
async function pasteInto(user: { click(el: Element): Promise<void>; paste(text: string): Promise<void> }, input: HTMLElement, text: string) {
  await user.click(input);
  await user.paste(text);
}

const NO_REFERENCES: VariableFields = { variables: [], fields: [], notes: [], preview_step_ids: [] };

/** The form with its draft held as the inspector holds it (here in plain state). */
function FormWithDraft({
  params,
  values,
  onSave,
  references = NO_REFERENCES,
}: {
  params: ParamOut[];
  values: Record<string, unknown>;
  onSave: (changes: Record<string, unknown>) => void;
  references?: VariableFields;
}) {
  const [edits, setEdits] = useState<Record<string, unknown>>({});
  return (
    <ParamForm
      params={params}
      values={values}
      edits={edits}
      unsaved={Object.keys(edits).length > 0}
      references={references}
      serverErrors={{}}
      saving={false}
      onEdit={(param, value) => setEdits((e) => ({ ...e, [param.name]: value }))}
      onSave={onSave}
      onDiscard={() => setEdits({})}
    />
  );
}

function renderForm(params: ParamOut[], values: Record<string, unknown> = {}, onSave = jest.fn()) {
  const utils = renderWithProviders(<FormWithDraft params={params} values={values} onSave={onSave} />);
  return { ...utils, onSave };
}

describe('param form generated from a param schema', () => {
  it('renders the right control for every param type, with label, required mark and help', () => {
    renderForm(everyType, { title: 'Q3', enabled: true, mode: 'keep', columns: ['a', 'b'], mapping: { a: 'b' } });
    expect(screen.getByLabelText(/title label/)).toHaveAttribute('data-param-type', 'string');
    expect(within(fieldOf('title')).getByText('*')).toBeInTheDocument();
    expect(screen.getByText('title help')).toBeInTheDocument();

    const count = screen.getByLabelText('count label');
    expect(count).toHaveAttribute('inputmode', 'numeric');
    expect(within(fieldOf('count')).getByText('count help Between 1 and 10.')).toBeInTheDocument();

    expect(within(fieldOf('enabled')).getByRole('checkbox')).toBeChecked();
    const mode = screen.getByLabelText('mode label');
    expect(mode.tagName).toBe('SELECT');
    expect(
      within(mode)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose…', 'Keep', 'Remove']);
    expect(screen.getByRole('combobox', { name: 'column label' }).closest('[data-param-type]')).toHaveAttribute('data-param-type', 'column');
    expect(within(fieldOf('columns')).getByText('a')).toBeInTheDocument();
    expect(within(fieldOf('columns')).getByRole('button', { name: 'Remove b' })).toBeInTheDocument();
    for (const name of ['condition', 'script', 'prompt']) {
      expect(screen.getByLabelText(`${name} label`).tagName).toBe('TEXTAREA');
      expect(within(fieldOf(name)).getByRole('button', { name: 'Insert variable or field' })).toBeInTheDocument();
    }
    // A SQL condition is a few lines; JavaScript gets a code editor that keeps its own line breaks.
    expect(screen.getByLabelText('condition label')).toHaveAttribute('rows', '3');
    const script = screen.getByLabelText('script label');
    expect(script).toHaveAttribute('data-param-type', 'code');
    expect(script).toHaveAttribute('rows', '12');
    expect(script).toHaveAttribute('wrap', 'off');
    expect(script).toHaveAttribute('spellcheck', 'false');
    expect(screen.getByLabelText('prompt label')).toHaveAttribute('spellcheck', 'true');
    expect(screen.getByLabelText('file label')).toHaveAttribute('data-param-type', 'file');
    expect(screen.getByLabelText('dataset label')).toHaveAttribute('data-param-type', 'dataset');
    expect(screen.getByLabelText('token label')).toHaveAttribute('type', 'password');
    const mapping = screen.getByLabelText('mapping label');
    expect(mapping.tagName).toBe('TEXTAREA');
    expect(mapping).toHaveValue('{\n  "a": "b"\n}');
  });

  it('checks values inline and sends only what changed', async () => {
    const { user, onSave } = renderForm(
      [p('title', 'string', { required: true }), p('count', 'number', { min: 1, max: 10, integer: true }), p('mapping', 'json'), p('columns', 'columns')],
      { title: 'x' },
    );
    await user.clear(screen.getByLabelText(/title label/));
    expect(await within(fieldOf('title')).findByText('This setting is required.')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/title label/), 'Hello');

    await user.type(screen.getByLabelText('count label'), '11');
    expect(within(fieldOf('count')).getByText('Must be at most 10.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('count label'));
    await user.type(screen.getByLabelText('count label'), '2.5');
    expect(within(fieldOf('count')).getByText('Enter a whole number.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('count label'));
    await user.type(screen.getByLabelText('count label'), '{{{{var.n}}');
    expect(within(fieldOf('count')).queryByText(/Enter/)).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('mapping label'), '{{oops');
    expect(within(fieldOf('mapping')).getByText('This is not valid JSON.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(onSave).not.toHaveBeenCalled();
    await user.clear(screen.getByLabelText('mapping label'));

    await pasteInto(user, screen.getByRole('combobox', { name: 'columns label' }), 'city');
    await user.keyboard('{Enter}');
    expect(screen.getByRole('combobox', { name: 'columns label' })).toHaveValue('');
    await user.paste('zip');
    await user.keyboard(',');
    expect(within(fieldOf('columns')).getByText('city')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(onSave).toHaveBeenCalledWith({ title: 'Hello', count: '{{var.n}}', columns: ['city', 'zip'] });
  });

  it('checks an expression as it is typed, with the same parser and words as the server', async () => {
    const { user, onSave } = renderForm([p('condition', 'expression', { required: true })], {});
    const field = screen.getByLabelText(/condition label/);
    await user.type(field, "country = = 'NL' ((");
    expect(within(fieldOf('condition')).getByText('Unexpected “=” at position 11')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(onSave).not.toHaveBeenCalled();
    await user.clear(field);
    await user.type(field, "country = 'NL' and lower(city) like 'a%'");
    expect(within(fieldOf('condition')).queryByText(/Unexpected|Unknown|Missing/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(onSave).toHaveBeenCalledWith({ condition: "country = 'NL' and lower(city) like 'a%'" });
  });
});

const filterInfo: StepInfoOut = {
  id: 'filter',
  name: 'Filter rows',
  description: 'Keep only the rows that match a condition.',
  category: 'transform',
  tags: ['filter'],
  params: [p('condition', 'expression', { required: true }), p('mode', 'enum', { options: ['keep', 'remove'], default: 'keep' })],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: '' },
  customized: false,
};

const step: StepOut = {
  id: 's-1',
  workflow_id: 'w-1',
  step_type: 'filter',
  name: 'Filter rows',
  param_inputs: { mode: 'keep' },
  inputs: ['s-0'],
  position: { x: 0, y: 0 },
};

describe('step inspector', () => {
  beforeEach(() => {
    server.use(
      http.get(api('/workflows/w-1/steps/s-1/variable-fields'), () =>
        HttpResponse.json({
          variables: [{ name: 'limit', type: 'number', reference: '{{var.limit}}' }],
          fields: [{ name: 'city', reference: '{{field.city}}', from_step_id: 's-0', input_index: 0 }],
          notes: [],
        }),
      ),
    );
  });

  it('shows a server 422 on a param under that field and saves through param-inputs/partial', async () => {
    let sent: unknown = null;
    let ifMatch: string | null = null;
    server.use(
      http.patch(api('/workflow-steps/s-1/param-inputs/partial'), async ({ request }) => {
        sent = await request.json();
        ifMatch = request.headers.get('if-match');
        return HttpResponse.json({ errors: [{ msg: 'Unknown column "nope"', loc: ['body', 'param_inputs', 'condition'] }] }, { status: 422 });
      }),
    );
    const write: ComponentProps<typeof StepInspector>['write'] = async (send) => send(7);
    const { user } = renderWithProviders(
      <StepInspector workflowId="w-1" step={step} info={filterInfo} write={write} onClose={jest.fn()} onDelete={jest.fn()} onDuplicate={jest.fn()} />,
    );
    const condition = screen.getByLabelText(/condition label/);
    // The picker offers the variables and input fields the server says this step may use.
    await user.click(within(fieldOf('condition')).getByRole('button', { name: 'Insert variable or field' }));
    await user.click(await screen.findByRole('menuitem', { name: '{{field.city}}' }));
    await waitFor(() => expect(condition).toHaveValue('{{field.city}}'));
    await user.type(condition, ' > nope');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));

    expect(await within(fieldOf('condition')).findByText('Unknown column "nope"')).toBeInTheDocument();
    expect(sent).toEqual({ param_inputs: { condition: '{{field.city}} > nope' } });
    expect(ifMatch).toBe('"7"');
    // Editing the field clears the server's complaint.
    await user.type(condition, 'x');
    expect(within(fieldOf('condition')).queryByText('Unknown column "nope"')).not.toBeInTheDocument();
  });
});

describe('step inspector category badge', () => {
  beforeEach(() => {
    server.use(
      http.get(api('/workflows/w-1/steps/s-1/variable-fields'), () => HttpResponse.json({ variables: [], fields: [], notes: [], preview_step_ids: [] })),
    );
  });

  it.each([
    ['/', 'Transform'],
    ['/cn', '转换'],
  ])('shows the translated category at %s', (route, label) => {
    const write: ComponentProps<typeof StepInspector>['write'] = async (send) => send(7);
    renderWithProviders(
      <StepInspector workflowId="w-1" step={step} info={filterInfo} write={write} onClose={jest.fn()} onDelete={jest.fn()} onDuplicate={jest.fn()} />,
      { route },
    );
    expect(screen.getByText(label)).toBeInTheDocument();
    expect(screen.queryByText('transform')).not.toBeInTheDocument();
  });
});

// A param naming a column the input does not have is flagged as it is typed, before saving, with
// "did you mean" when a column is close; the name may still be saved (a step further up may add it).
describe('columns the input does not have', () => {
  const labelled = (name: string, type: ParamOut['type'], label: string): ParamOut => ({ ...p(name, type), label });
  const params = [labelled('condition', 'expression', 'Condition'), labelled('column', 'column', 'Column'), labelled('columns', 'columns', 'Sort by')];

  const field = (name: string, type: string) => ({ name, type, reference: `{{field.${name}}}`, from_step_id: 's-1', input_index: 0 });
  const known: VariableFields = {
    variables: [],
    fields: [field('name', 'VARCHAR'), field('state', 'VARCHAR'), field('amount', 'BIGINT')],
    notes: [],
    preview_step_ids: [],
  };

  it('flags a column typed wrong in a condition, with the column it likely meant', async () => {
    const { user } = renderWithProviders(<FormWithDraft params={params} values={{}} references={known} onSave={jest.fn()} />);
    await user.type(screen.getByLabelText('Condition'), "stat = 'CA'");
    expect(within(fieldOf('condition')).getByTestId('unknown-column')).toHaveTextContent('The input has no column “stat”: did you mean “state”?');
    await user.clear(screen.getByLabelText('Condition'));
    await user.type(screen.getByLabelText('Condition'), "STATE = 'CA' AND amount > 3");
    expect(within(fieldOf('condition')).queryByTestId('unknown-column')).not.toBeInTheDocument();
  });

  it('fixes a column param in one click, and a wrong name among several columns', async () => {
    const onSave = jest.fn();
    const { user } = renderWithProviders(<FormWithDraft params={params} values={{ columns: ['name', 'amuont'] }} references={known} onSave={onSave} />);
    const sortBy = within(fieldOf('columns')).getByTestId('unknown-column');
    expect(sortBy).toHaveTextContent('The input has no column “amuont”: did you mean “amount”?');
    await user.click(within(sortBy).getByRole('button', { name: 'Use “amount”' }));
    expect(within(fieldOf('columns')).queryByTestId('unknown-column')).not.toBeInTheDocument();

    await pasteInto(user, screen.getByLabelText('Column'), 'revenue');
    expect(within(fieldOf('column')).getByTestId('unknown-column')).toHaveTextContent(
      'The input has no column “revenue”. Keep it only if a step before this one will add it.',
    );
    expect(within(fieldOf('column')).queryByRole('button', { name: /Use/ })).not.toBeInTheDocument();
    // A warning, not an error: the name a later change will add can be saved.
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(onSave).toHaveBeenCalledWith({ columns: ['name', 'amount'], column: 'revenue' });
  });

  it('says nothing while the input columns are not all known (a step before has not run)', async () => {
    const { user } = renderWithProviders(
      <FormWithDraft
        params={params}
        values={{}}
        references={{ ...known, notes: ['Columns of the input appear here once the steps before this one have run.'] }}
        onSave={jest.fn()}
      />,
    );
    await user.type(screen.getByLabelText('Condition'), "stat = 'CA'");
    expect(screen.queryByTestId('unknown-column')).not.toBeInTheDocument();
  });
});

// Sort keys: several columns, each in its own direction, changed by its arrow (default, ascending, descending).
describe('sort keys', () => {
  const sortBy: ParamOut = { ...p('columns', 'sort_keys'), label: 'Sort by', required: true };

  it('gives each column its own direction and saves the keys as the server takes them', async () => {
    const onSave = jest.fn();
    const { user } = renderWithProviders(
      <FormWithDraft params={[sortBy]} values={{ columns: ['age', { column: 'score', direction: 'descending' }] }} onSave={onSave} />,
    );
    const age = screen.getByRole('button', { name: 'age: in the default direction (change)' });
    expect(screen.getByRole('button', { name: 'score: descending, largest or Z first (change)' })).toHaveAttribute('data-direction', 'descending');
    await user.click(age);
    await user.click(screen.getByRole('button', { name: 'age: ascending, smallest or A first (change)' }));
    expect(screen.getByRole('button', { name: 'age: descending, largest or Z first (change)' })).toBeInTheDocument();
    // A column typed in is added in the default direction.
    await pasteInto(user, screen.getByRole('combobox', { name: 'Sort by' }), 'name');
    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(onSave).toHaveBeenCalledWith({
      columns: [{ column: 'age', direction: 'descending' }, { column: 'score', direction: 'descending' }, 'name'],
    });
  });

  it('goes back to the default direction after descending, and removes a column by its ×', async () => {
    const onSave = jest.fn();
    const { user } = renderWithProviders(
      <FormWithDraft params={[sortBy]} values={{ columns: [{ column: 'age', direction: 'descending' }, 'city'] }} onSave={onSave} />,
    );
    await user.click(screen.getByRole('button', { name: 'age: descending, largest or Z first (change)' }));
    expect(screen.getByRole('button', { name: 'age: in the default direction (change)' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove city' }));
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(onSave).toHaveBeenCalledWith({ columns: ['age'] });
  });
});

// A json param whose objects have known fields (an aggregation) is edited as rows of pickers.
describe('rows of a json param', () => {
  const summaries: ParamOut = {
    ...p('aggregations', 'json'),
    label: 'Summaries',
    fields: [
      { name: 'column', kind: 'column', label: 'Column', also: ['*'], required: true },
      { name: 'function', kind: 'enum', label: 'Function', options: ['count', 'sum', 'avg'], required: true },
      { name: 'as', kind: 'text', label: 'Result column', required: false },
    ],
  };
  const input: VariableFields = {
    variables: [],
    fields: [{ name: 'amount', type: 'DOUBLE', reference: '{{field.amount}}', from_step_id: 's-1', input_index: 0 }],
    notes: [],
    preview_step_ids: [],
  };

  it('shows each object as a row, adds one with pickers, flags a column the input lacks, and saves the list', async () => {
    const onSave = jest.fn();
    const { user } = renderWithProviders(
      <FormWithDraft params={[summaries]} values={{ aggregations: [{ column: '*', function: 'count', as: 'orders' }] }} references={input} onSave={onSave} />,
    );
    expect(screen.getByRole('combobox', { name: 'Column 1' })).toHaveValue('*');
    expect(screen.getByRole('combobox', { name: 'Function 1' })).toHaveValue('count');
    expect(screen.getByRole('textbox', { name: 'Result column 1' })).toHaveValue('orders');
    await user.click(screen.getByRole('button', { name: 'Add a row' }));
    await pasteInto(user, screen.getByRole('combobox', { name: 'Column 2' }), 'amuont');
    expect(within(fieldOf('aggregations')).getByTestId('unknown-column')).toHaveTextContent('did you mean “amount”?');
    await user.clear(screen.getByRole('combobox', { name: 'Column 2' }));
    await pasteInto(user, screen.getByRole('combobox', { name: 'Column 2' }), 'amount');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Function 2' }), 'sum');
    await user.type(screen.getByRole('textbox', { name: 'Result column 2' }), 'total');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(onSave).toHaveBeenCalledWith({
      aggregations: [
        { column: '*', function: 'count', as: 'orders' },
        { column: 'amount', function: 'sum', as: 'total' },
      ],
    });
  });

  it('removes a row, and edits as JSON when asked or when the text is not rows', async () => {
    const onSave = jest.fn();
    const { user } = renderWithProviders(
      <FormWithDraft
        params={[summaries]}
        values={{
          aggregations: [
            { column: '*', function: 'count' },
            { column: 'amount', function: 'avg' },
          ],
        }}
        onSave={onSave}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Remove row 1' }));
    expect(screen.getByRole('combobox', { name: 'Column 1' })).toHaveValue('amount');
    await user.click(screen.getByRole('button', { name: 'Edit as JSON' }));
    const text = screen.getByLabelText('Summaries');
    expect(JSON.parse((text as HTMLTextAreaElement).value)).toEqual([{ column: 'amount', function: 'avg' }]);
    await user.clear(text);
    await user.type(text, '{{"nested": [1]}');
    expect(screen.getByText('This value is not a list of rows of plain values, so it is shown as JSON.')).toBeInTheDocument();
  });
});

describe('column pickers', () => {
  const twoInputs: VariableFields = {
    variables: [],
    fields: [
      { name: 'id', type: 'BIGINT', reference: '{{field.id}}', from_step_id: 's-1', input_index: 0 },
      { name: 'name', type: 'VARCHAR', reference: '{{field.name}}', from_step_id: 's-1', input_index: 0 },
      { name: 'id', type: 'BIGINT', reference: '{{field.id}}', from_step_id: 's-2', input_index: 1 },
      { name: 'person_id', type: 'BIGINT', reference: '{{field.person_id}}', from_step_id: 's-2', input_index: 1 },
    ],
    notes: [],
    preview_step_ids: [],
  };

  it("offers each side's own columns to a join's keys, and adds the one picked", async () => {
    const onSave = jest.fn();
    const params = [
      { ...p('left_on', 'columns', { input_index: 0 }), label: 'Left keys' },
      { ...p('right_on', 'columns', { input_index: 1 }), label: 'Right keys' },
    ];
    const { user } = renderWithProviders(<FormWithDraft params={params} values={{}} references={twoInputs} onSave={onSave} />);
    await user.click(screen.getByRole('combobox', { name: 'Right keys' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['idinteger', 'person_idinteger']);
    await user.click(screen.getByRole('option', { name: /person_id/ }));
    expect(within(fieldOf('right_on')).getByText('person_id')).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Left keys' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['idinteger', 'nametext']);
    await user.click(screen.getByRole('option', { name: /^id/ }));
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(onSave).toHaveBeenCalledWith({ left_on: ['id'], right_on: ['person_id'] });
  });
});

describe('rows of other object lists', () => {
  const typed: VariableFields = {
    variables: [],
    fields: [
      { name: 'qty', type: 'BIGINT', reference: '{{field.qty}}', from_step_id: 's-1', input_index: 0 },
      { name: 'paid', type: 'BOOLEAN', reference: '{{field.paid}}', from_step_id: 's-1', input_index: 0 },
      { name: 'region', type: 'VARCHAR', reference: '{{field.region}}', from_step_id: 's-1', input_index: 0 },
    ],
    notes: [],
    preview_step_ids: [],
  };

  it('saves a fill value as the column holds it: a number, true or false, or text', async () => {
    const fills: ParamOut = {
      ...p('fills', 'json'),
      label: 'Fills',
      fields: [
        { name: 'column', kind: 'column', label: 'Column', required: true },
        { name: 'method', kind: 'enum', label: 'Fill with', options: ['value', 'forward', 'backward'], required: false },
        { name: 'value', kind: 'value', label: 'Value', type_from: 'column', required: false },
      ],
    };
    const onSave = jest.fn();
    const { user } = renderWithProviders(<FormWithDraft params={[fills]} values={{}} references={typed} onSave={onSave} />);
    for (const [number, column, value] of [
      [1, 'qty', '0'],
      [2, 'paid', 'false'],
      [3, 'region', '12'],
    ] as const) {
      await user.click(screen.getByRole('button', { name: 'Add a row' }));
      await user.click(screen.getByRole('combobox', { name: `Column ${number}` }));
      await user.click(await screen.findByRole('option', { name: new RegExp(`^${column}`) }));
      await user.type(screen.getByRole('textbox', { name: `Value ${number}` }), value);
    }
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(onSave).toHaveBeenCalledWith({
      fills: [
        { column: 'qty', method: 'value', value: 0 },
        { column: 'paid', method: 'value', value: false },
        { column: 'region', method: 'value', value: '12' },
      ],
    });
  });

  // A rename: one object, each of its keys and values a row of column and new name.
  const mapping: ParamOut = {
    ...p('mapping', 'json'),
    label: 'New names',
    shape: 'map',
    fields: [
      { name: 'from', kind: 'column', label: 'Column', required: true },
      { name: 'to', kind: 'text', label: 'New name', required: true },
    ],
  };

  it('shows a rename as rows of column and new name, and saves it as one object', async () => {
    const onSave = jest.fn();
    const { user } = renderWithProviders(<FormWithDraft params={[mapping]} values={{ mapping: { qty: 'quantity' } }} references={typed} onSave={onSave} />);
    expect(screen.getByRole('combobox', { name: 'Column 1' })).toHaveValue('qty');
    expect(screen.getByRole('textbox', { name: 'New name 1' })).toHaveValue('quantity');
    await user.click(screen.getByRole('button', { name: 'Add a row' }));
    await user.click(screen.getByRole('combobox', { name: 'Column 2' }));
    await user.click(await screen.findByRole('option', { name: /^region/ }));
    await user.type(screen.getByRole('textbox', { name: 'New name 2' }), 'area');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(onSave).toHaveBeenCalledWith({ mapping: { qty: 'quantity', region: 'area' } });
  });

  it("keeps a rename's new blank rows and a column named twice on screen, says which row counts, and saves no blank column", async () => {
    const onSave = jest.fn();
    const { user } = renderWithProviders(<FormWithDraft params={[mapping]} values={{ mapping: { qty: 'quantity' } }} references={typed} onSave={onSave} />);
    await user.click(screen.getByRole('button', { name: 'Add a row' }));
    await user.click(screen.getByRole('button', { name: 'Add a row' }));
    expect(screen.getAllByRole('group', { name: /^Row / })).toHaveLength(3);
    await user.click(screen.getByRole('combobox', { name: 'Column 2' }));
    await user.click(await screen.findByRole('option', { name: /^qty/ }));
    await user.type(screen.getByRole('textbox', { name: 'New name 2' }), 'units');
    expect(screen.getAllByRole('group', { name: /^Row / })).toHaveLength(3);
    expect(screen.getByText('“qty” is renamed in two rows: only the last one counts.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(onSave).toHaveBeenCalledWith({ mapping: { qty: 'units' } });
  });
});

describe("a pivot's new columns", () => {
  const spread: ParamOut = { ...p('pivot_column', 'column'), label: 'Column to spread' };
  const values: ParamOut = { ...p('values', 'json'), label: 'New columns', values_of: 'pivot_column' };
  const months: VariableFields = {
    variables: [],
    fields: [{ name: 'month', type: 'BIGINT', reference: '{{field.month}}', from_step_id: 's-1', input_index: 0 }],
    notes: [],
    preview_step_ids: [],
  };
  const input = datasetOut('ds-sales', [{ name: 'month', type: 'BIGINT' }], 9);

  beforeEach(() => {
    server.use(
      http.get(api('/workflow-steps/s-1/output-dataset'), () => HttpResponse.json(input)),
      http.get(api('/datasets/ds-sales/values'), ({ request }) =>
        new URL(request.url).searchParams.get('column') === 'month'
          ? HttpResponse.json({
              column: 'month',
              values: [
                { value: 1, count: 4 },
                { value: 2, count: 3 },
                { value: 3, count: 2 },
              ],
              distinct: 3,
            })
          : HttpResponse.json({ errors: [{ msg: 'The dataset has no column.', loc: ['query', 'column'] }] }, { status: 422 }),
      ),
    );
  });

  it("offers the chosen column's values from the input's data, with their counts, and keeps their type", async () => {
    const onSave = jest.fn();
    const { user } = renderWithProviders(
      <FormWithDraft params={[spread, values]} values={{ pivot_column: 'month', values: [] }} references={months} onSave={onSave} />,
    );
    expect(await screen.findByText('“month” has 3 values in the input.')).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'New columns' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['14 records', '23 records', '32 records']);
    await user.click(screen.getByRole('option', { name: /^2/ }));
    expect(within(fieldOf('values')).getByText('2')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add all 2' }));
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(onSave).toHaveBeenCalledWith({ values: [2, 1, 3] });
  });

  it('says where the values come from before a column is chosen', async () => {
    const { user } = renderWithProviders(<FormWithDraft params={[spread, values]} values={{}} references={months} onSave={jest.fn()} />);
    await user.click(screen.getByRole('combobox', { name: 'New columns' }));
    expect(await screen.findByText('Choose the column to spread first: its values are offered here.')).toBeInTheDocument();
  });
});
