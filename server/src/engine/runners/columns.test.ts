import { getStepDescription } from '../step-types';
import { findColumn, resolveParams, typeCategory, widenTypes } from './columns';
import { StepParamsInvalid } from './errors';

describe('column helpers', () => {
  it('widens union types the way the runner documents', () => {
    expect(widenTypes('INTEGER', 'INTEGER')).toBe('INTEGER');
    expect(widenTypes('INTEGER', 'BIGINT')).toBe('BIGINT');
    expect(widenTypes('UINTEGER', 'INTEGER')).toBe('BIGINT');
    expect(widenTypes('BIGINT', 'DOUBLE')).toBe('DOUBLE');
    expect(widenTypes('DECIMAL(10,2)', 'INTEGER')).toBe('DOUBLE');
    expect(widenTypes('DATE', 'TIMESTAMP WITH TIME ZONE')).toBe('TIMESTAMP WITH TIME ZONE');
    expect(widenTypes('VARCHAR', 'BIGINT')).toBe('VARCHAR');
    expect(widenTypes('STRUCT("a" INTEGER)', 'BIGINT')).toBe('VARCHAR');
  });

  it('sorts DuckDB type names into what the checks care about', () => {
    expect(['DECIMAL(18,3)', 'JSON', 'TIMESTAMP WITH TIME ZONE', 'TIME', 'VARCHAR[]', 'STRUCT("a" INTEGER)', 'UNKNOWN'].map(typeCategory)).toEqual([
      'number',
      'text',
      'timestamp',
      'time',
      'nested',
      'nested',
      'unknown',
    ]);
  });

  it('finds columns as DuckDB does, an exact spelling first', () => {
    const columns = [
      { name: 'Price', type: 'DOUBLE' },
      { name: 'city', type: 'VARCHAR' },
    ];
    expect(findColumn(columns, 'price')).toBe(columns[0]);
    expect(findColumn(columns, 'CITY')).toBe(columns[1]);
    expect(findColumn(columns, 'town')).toBeUndefined();
  });

  it('applies defaults and variables to params, refusing a reference it cannot resolve', () => {
    expect(resolveParams(getStepDescription('limit')!, { count: '{{var.n}}' }, { n: 5 })).toEqual({ count: 5, offset: 0 });
    expect(resolveParams(getStepDescription('sort')!, { columns: ['a'] })).toEqual({ columns: ['a'], direction: 'ascending', nulls: 'last' });
    expect(() => resolveParams(getStepDescription('limit')!, { count: '{{field.n}}' })).toThrow(StepParamsInvalid);
    expect(() => resolveParams(getStepDescription('limit')!, { count: '{{var.n}}' }, {})).toThrow(StepParamsInvalid);
  });
});
