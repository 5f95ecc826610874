import { acceptsFile, defaultParams, isReference, referencesIn, validateParams, type ParamIssue } from './params';
import { getStepDescription, stepDescriptions } from './step-types';
import type { ParamSpec, StepTypeDescription } from './step-types/step-type';

/** A step type with one param of the given spec, so each ParamType is checked on its own. */
const typeWith = (...params: Partial<ParamSpec>[]): StepTypeDescription => ({
  id: 'test',
  name: 'Test',
  description: 'A step type for tests',
  category: 'transform',
  tags: [],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: '' },
  params: params.map((p, i) => ({ name: `p${i}`, type: 'string', label: 'P', help: 'h', required: false, ...p }) as ParamSpec),
});

const check = (spec: Partial<ParamSpec>, value: unknown): ParamIssue[] => validateParams(typeWith(spec), { p0: value }, 'replace');
const keys = (spec: Partial<ParamSpec>, value: unknown) => check(spec, value).map((i) => i.key);

describe('defaultParams', () => {
  it('answers every default, as a copy', () => {
    const dedupe = getStepDescription('deduplicate')!;
    const values = defaultParams(dedupe);
    expect(values).toEqual({ columns: [], keep: 'first', ignore_case: false });
    (values.columns as string[]).push('email');
    expect(defaultParams(dedupe).columns).toEqual([]);
  });

  it('leaves out params without a default', () => {
    expect(defaultParams(getStepDescription('filter')!)).toEqual({ mode: 'keep' });
  });
});

describe('validateParams', () => {
  it('accepts the defaults plus the required values of every step type', () => {
    const sample: Record<string, unknown> = {
      file: 'f-1',
      folder: 'f-2',
      dataset: 'd-1',
      condition: 'x > 1',
      columns: ['a'],
      mapping: { a: 'b' },
      new_column: 'c',
      expression: 'a + 1',
      left_on: ['id'],
      right_on: ['id'],
      prompt: 'Hi {{field.name}}',
      url: 'https://x.test/{{field.id}}',
      column: 'a',
      pivot_column: 'b',
      value_column: 'c',
      pattern: '(\\d+)',
      values: ['x'],
      labels: ['yes', 'no'],
      fields: [{ name: 'total', type: 'number' }],
      casts: [{ column: 'a', type: 'text' }],
      fills: [{ column: 'a', method: 'forward' }],
      paths: [{ path: '$.a', as: 'a' }],
    };
    for (const type of stepDescriptions) {
      const values = defaultParams(type);
      for (const p of type.params) if (p.required && values[p.name] === undefined) values[p.name] = sample[p.name];
      expect([type.id, validateParams(type, values, 'replace')]).toEqual([type.id, []]);
    }
  });

  it('replace: reports missing required params and unknown ones', () => {
    const filter = getStepDescription('filter')!;
    expect(validateParams(filter, { mode: 'keep', colour: 'red' }, 'replace')).toEqual([
      { param: 'colour', key: 'server.params.unknown', values: { param: 'colour' } },
      { param: 'condition', key: 'server.params.required' },
    ]);
    expect(validateParams(filter, { condition: '   ' }, 'replace')).toEqual([{ param: 'condition', key: 'server.params.required' }]);
  });

  it('merge: checks only the given params; null clears an optional one and is refused for a required one', () => {
    const filter = getStepDescription('filter')!;
    expect(validateParams(filter, { mode: 'remove' }, 'merge', { condition: 'a > 1' })).toEqual([]);
    expect(validateParams(filter, { mode: 'remove' }, 'merge', {})).toEqual([]);
    expect(validateParams(filter, { mode: null }, 'merge', { condition: 'a > 1' })).toEqual([]);
    expect(validateParams(filter, { condition: null }, 'merge', { condition: 'a > 1' })).toEqual([{ param: 'condition', key: 'server.params.required' }]);
    expect(validateParams(filter, { mode: 'sideways' }, 'merge', {})).toEqual([
      { param: 'mode', key: 'server.params.enum', values: { values: 'keep, remove' } },
    ]);
  });

  it('number: type, whole numbers, bounds', () => {
    expect(keys({ type: 'number' }, 3.5)).toEqual([]);
    expect(keys({ type: 'number' }, '3')).toEqual(['server.params.number']);
    expect(keys({ type: 'number' }, Number.NaN)).toEqual(['server.params.number']);
    expect(keys({ type: 'number', integer: true }, 2.5)).toEqual(['server.params.integer']);
    expect(check({ type: 'number', min: 1 }, 0)).toEqual([{ param: 'p0', key: 'server.params.minimum', values: { limit: 1 } }]);
    expect(check({ type: 'number', max: 2 }, 2.1)).toEqual([{ param: 'p0', key: 'server.params.maximum', values: { limit: 2 } }]);
  });

  it('boolean and enum', () => {
    expect(keys({ type: 'boolean' }, false)).toEqual([]);
    expect(keys({ type: 'boolean' }, 'true')).toEqual(['server.params.boolean']);
    expect(keys({ type: 'enum', options: ['a', 'b'] }, 'b')).toEqual([]);
    expect(check({ type: 'enum', options: ['a', 'b'] }, 'c')).toEqual([{ param: 'p0', key: 'server.params.enum', values: { values: 'a, b' } }]);
  });

  it('column and columns', () => {
    expect(keys({ type: 'column' }, 'email')).toEqual([]);
    expect(keys({ type: 'column' }, 42)).toEqual(['server.params.column']);
    expect(keys({ type: 'columns' }, ['a', 'b'])).toEqual([]);
    expect(keys({ type: 'columns' }, 'a')).toEqual(['server.params.columns']);
    expect(keys({ type: 'columns' }, ['a', ''])).toEqual(['server.params.columns']);
    expect(keys({ type: 'columns' }, ['a', 3])).toEqual(['server.params.columns']);
    expect(check({ type: 'columns' }, ['a', 'a'])).toEqual([{ param: 'p0', key: 'server.params.duplicateColumn', values: { column: 'a' } }]);
    // Sort keys: names, or a name with its own direction; nothing else, at most 100, each once.
    expect(keys({ type: 'sort_keys' }, ['a', { column: 'b', direction: 'descending' }, { column: 'c' }])).toEqual([]);
    for (const bad of [
      'a',
      [{ column: 'a', direction: 'down' }],
      [{ column: '' }],
      [{ column: 'a', as: 'b' }],
      [['a']],
      Array.from({ length: 101 }, (_, i) => `c${i}`),
    ])
      expect([bad, keys({ type: 'sort_keys' }, bad)]).toEqual([bad, ['server.params.sortKeys']]);
    expect(check({ type: 'sort_keys' }, ['a', { column: 'a', direction: 'ascending' }])).toEqual([
      { param: 'p0', key: 'server.params.duplicateColumn', values: { column: 'a' } },
    ]);
    // Empty is "no value": fine when optional, missing when required.
    expect(keys({ type: 'columns' }, [])).toEqual([]);
    expect(keys({ type: 'columns', required: true }, [])).toEqual(['server.params.required']);
  });

  it('join: both key lists must pair up, also when only one of them changes', () => {
    const join = getStepDescription('join')!;
    expect(validateParams(join, { left_on: ['a', 'b'], right_on: ['x'] }, 'replace')).toEqual([
      {
        param: 'right_on',
        key: 'server.params.sameLength',
        values: { count: 2 },
        words: { other: { en: 'Key columns of the first table', 'zh-CN': '第一张表的键列' } },
      },
    ]);
    expect(validateParams(join, { left_on: ['a', 'b'] }, 'merge', { left_on: ['a'], right_on: ['x'] })).toEqual([
      {
        param: 'right_on',
        key: 'server.params.sameLength',
        values: { count: 2 },
        words: { other: { en: 'Key columns of the first table', 'zh-CN': '第一张表的键列' } },
      },
    ]);
    expect(validateParams(join, { right_on: ['x', 'y'] }, 'merge', { left_on: ['a', 'b'], right_on: ['x'] })).toEqual([]);
  });

  it('json: any JSON value, nothing else', () => {
    for (const value of [{ a: 1 }, [1, 'x'], 'text', 0, true, { nested: { list: [null] } }]) expect(keys({ type: 'json' }, value)).toEqual([]);
    expect(keys({ type: 'json' }, { a: () => 1 })).toEqual(['server.params.json']);
    expect(keys({ type: 'json' }, { a: Number.POSITIVE_INFINITY })).toEqual(['server.params.json']);
    expect(keys({ type: 'json' }, new Date())).toEqual(['server.params.json']);
  });

  it('secret, file, folder and dataset are strings; ids are short', () => {
    expect(keys({ type: 'secret' }, 'sk-123')).toEqual([]);
    expect(keys({ type: 'secret' }, 123)).toEqual(['server.params.string']);
    expect(keys({ type: 'file' }, '5f0c…')).toEqual([]);
    expect(keys({ type: 'file' }, 7)).toEqual(['server.params.file']);
    expect(keys({ type: 'folder' }, '5f0c…')).toEqual([]);
    expect(keys({ type: 'folder' }, ['a'])).toEqual(['server.params.folder']);
    expect(keys({ type: 'folder' }, 'x'.repeat(65))).toEqual(['server.params.folder']);
    expect(keys({ type: 'dataset' }, 'x'.repeat(65))).toEqual(['server.params.dataset']);
  });

  it('string, expression, code and template: text within max_length (10000 by default)', () => {
    expect(keys({ type: 'expression' }, 'a > 1')).toEqual([]);
    expect(keys({ type: 'code' }, 'return { ...record };')).toEqual([]);
    expect(keys({ type: 'code' }, 42)).toEqual(['server.params.string']);
    expect(check({ type: 'code', max_length: 5 }, 'return record;')).toEqual([{ param: 'p0', key: 'server.params.maxLength', values: { limit: 5 } }]);
    expect(keys({ type: 'template' }, ['a'])).toEqual(['server.params.string']);
    expect(check({ type: 'string', max_length: 5 }, 'toolong')).toEqual([{ param: 'p0', key: 'server.params.maxLength', values: { limit: 5 } }]);
    expect(check({ type: 'template' }, 'x'.repeat(10_001))).toEqual([{ param: 'p0', key: 'server.params.maxLength', values: { limit: 10_000 } }]);
  });

  it('a whole-value reference stands in for any scalar type', () => {
    for (const spec of [
      { type: 'number', min: 0 },
      { type: 'boolean' },
      { type: 'enum', options: ['a'] },
      { type: 'column' },
      { type: 'file' },
      { type: 'folder' },
      { type: 'dataset' },
      { type: 'secret' },
    ] as Partial<ParamSpec>[]) {
      expect(keys(spec, '{{var.threshold}}')).toEqual([]);
      expect(keys(spec, '{{ field.City Name }}')).toEqual([]);
    }
    // Not for lists: there each item may be one.
    expect(keys({ type: 'columns' }, '{{var.cols}}')).toEqual(['server.params.columns']);
    expect(keys({ type: 'columns' }, ['{{var.key}}', 'id'])).toEqual([]);
  });

  it('embedded references must be well formed', () => {
    expect(keys({ type: 'template' }, 'Hello {{field.name}}, you owe {{var.amount}}')).toEqual([]);
    expect(check({ type: 'template' }, 'Hello {{name}}')).toEqual([{ param: 'p0', key: 'server.params.badReference', values: { reference: '{{name}}' } }]);
    expect(keys({ type: 'expression' }, 'a > {{var.1bad}}')).toEqual(['server.params.badReference']);
    expect(keys({ type: 'json' }, { Authorization: 'Bearer {{secret.token}}' })).toEqual(['server.params.badReference']);
    expect(keys({ type: 'number' }, '{{var.bad name}}')).toEqual(['server.params.number']);
  });
});

describe('expression params', () => {
  it('must parse as a SQL expression: the issue says what is wrong and where', () => {
    expect(check({ type: 'expression' }, "country = = 'NL' ((")).toEqual([
      { param: 'p0', key: 'server.expressions.unexpected', values: { token: '=', position: 11 } },
    ]);
    expect(keys({ type: 'expression' }, '1); DROP TABLE x; --')).toEqual(['server.expressions.unexpected']);
    expect(keys({ type: 'expression' }, 'foo(x)')).toEqual(['server.expressions.unknownFunction']);
    expect(keys({ type: 'expression' }, "amount > {{var.threshold}} AND {{field.Unit price}} < 10 AND lower(name) LIKE 'a%'")).toEqual([]);
    // A whole-value reference stands for the expression, as for other scalar params.
    expect(keys({ type: 'expression' }, '{{var.condition}}')).toEqual([]);
  });

  it('are checked for length and references before they are parsed', () => {
    expect(keys({ type: 'expression', max_length: 5 }, 'a = = b')).toEqual(['server.params.maxLength']);
    expect(keys({ type: 'expression' }, 'a > {{var.1bad}} = =')).toEqual(['server.params.badReference']);
  });

  it('code is JavaScript, not SQL: it is not parsed as an expression', () => {
    expect(keys({ type: 'code' }, 'if (record.a == 1) { return null; } return record; // done')).toEqual([]);
    expect(getStepDescription('code')!.params.find((p) => p.name === 'code')!.type).toBe('code');
  });

  it('the examples the catalogue gives for conditions and formulas are valid', () => {
    const filter = getStepDescription('filter')!;
    const addColumn = getStepDescription('add_column')!;
    for (const condition of ["price > 100 and status = 'paid'", "age >= 18 and country = 'NL'"]) {
      expect(filter.description + filter.params[0].help).toContain(condition);
      expect(validateParams(filter, { condition }, 'replace')).toEqual([]);
    }
    for (const expression of ['price * quantity', 'upper(country)', "concat(first_name, ' ', last_name)", '{{var.rate}} * amount']) {
      expect(addColumn.description + addColumn.params[1].help).toContain(expression);
      expect(validateParams(addColumn, { new_column: 'x', expression }, 'replace')).toEqual([]);
    }
  });
});

describe('acceptsFile', () => {
  it('takes a file whose name ends as the param accepts, in any case; without accept, any file', () => {
    const csv = getStepDescription('import_csv')!.params.find((p) => p.name === 'file')!;
    expect(['customers.csv', 'Sales.CSV', ' a.csv '].map((name) => acceptsFile(csv, name))).toEqual([true, true, true]);
    expect(['notes.txt', 'csv', 'data.csv.zip'].map((name) => acceptsFile(csv, name))).toEqual([false, false, false]);
    expect(acceptsFile({}, 'anything.bin')).toBe(true);
  });
});

describe('referencesIn', () => {
  it('finds variables and fields anywhere in the values, each once, sorted', () => {
    expect(
      referencesIn({
        prompt: 'Summarise {{field.review}} in {{var.language}} for {{field.customer name}}',
        threshold: '{{var.threshold}}',
        headers: { Authorization: 'Bearer {{var.token}}', 'X-Lang': '{{ var.language }}' },
        columns: ['{{field.review}}'],
        count: 3,
        broken: '{{nothing.here}}',
      }),
    ).toEqual({ variables: ['language', 'threshold', 'token'], fields: ['customer name', 'review'] });
    expect(referencesIn({})).toEqual({ variables: [], fields: [] });
  });

  it('isReference is true only for one whole reference', () => {
    expect(isReference('{{var.x}}')).toBe(true);
    expect(isReference(' {{ field.a b }} ')).toBe(true);
    expect(isReference('{{var.x}} + 1')).toBe(false);
    expect(isReference('{{var.}}')).toBe(false);
    expect(isReference(5)).toBe(false);
  });
});
