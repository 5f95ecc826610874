import { StepParamsInvalid } from '../errors';
import { checkReferences, renderBody, renderText, renderUrl } from './templates';

const scope = { record: { _id: 'r1', Name: 'Ada "the first"', age: 36, tags: ['a', 'b'], none: null }, vars: { base: 'https://api.test', key: 'k&1' } };
const columns = [
  { name: '_id', type: 'VARCHAR' },
  { name: 'Name', type: 'VARCHAR' },
  { name: 'age', type: 'BIGINT' },
];

describe('per-record templates', () => {
  it('fills text with fields (matched without regard to case) and variables; null is empty, lists are JSON', () => {
    expect(renderText('{{field.name}} is {{ field.age }}; {{field.tags}}; [{{field.none}}]; {{var.key}}', scope)).toBe(
      'Ada "the first" is 36; ["a","b"]; []; k&1',
    );
  });

  it('URL-encodes values placed into a URL, but not the reference it starts with (a base or whole address)', () => {
    expect(renderUrl('{{var.base}}/people/{{field.Name}}?key={{var.key}}', scope)).toBe('https://api.test/people/Ada%20%22the%20first%22?key=k%261');
    expect(renderUrl(' {{var.base}} ', scope)).toBe('https://api.test');
    expect(renderUrl('https://x.test/{{var.base}}', scope)).toBe('https://x.test/https%3A%2F%2Fapi.test');
  });

  it('fills a JSON body as JSON: escaped text, typed whole references', () => {
    expect(renderBody('{"who": "{{field.Name}}", "age": "{{field.age}}", "tags": "{{field.tags}}", "{{var.key}}": [1, "x{{field.age}}"]}', scope)).toEqual({
      json: true,
      value: { who: 'Ada "the first"', age: 36, tags: ['a', 'b'], 'k&1': [1, 'x36'] },
    });
    expect(renderBody('name={{field.Name}}', scope)).toEqual({ json: false, text: 'name=Ada "the first"' });
  });

  it('refuses references to missing columns, unknown variables and malformed placeholders', () => {
    const keyOf = (text: string, vars?: Record<string, unknown>) => {
      try {
        checkReferences(text, columns, vars, ['url']);
        return null;
      } catch (err) {
        return err instanceof StepParamsInvalid ? err.problems[0].key : err;
      }
    };
    expect(keyOf('{{field.AGE}} {{var.x}}')).toBeNull();
    expect(keyOf('{{field.city}}')).toBe('server.steps.unknownColumn');
    expect(keyOf('{{var.x}}', {})).toBe('server.steps.unresolvedReference');
    expect(keyOf('{{nope}}')).toBe('server.params.badReference');
  });
});
