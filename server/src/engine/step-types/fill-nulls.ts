import type { StepType, StepTypeDescription } from './step-type';
import type { ParamValues } from '../params';
import { PLAIN_TYPE, q, resolveParams, typeCategory } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { Column, SqlParam, SqlRunner, Vars } from '../runners/types';
import { POS, withPositions } from '../sql-steps/row-positions';
import { objectList } from '../sql-steps/param-values';
import { singleInput, dataColumn, listWith } from '../sql-steps/output-columns';

const description: StepTypeDescription = {
  id: 'fill_nulls',
  name: 'Fill empty values',
  description:
    'Fill empty (NULL) values of columns: with a fixed value, with the last non-empty value above (forward fill) or with the next non-empty value below (backward fill), in the order of the rows. Empty values at the very start (forward) or end (backward) stay empty.',
  category: 'transform',
  tags: ['null', 'missing', 'fill', 'clean'],
  params: [
    {
      name: 'fills',
      type: 'json',
      label: 'Fills',
      help: 'A JSON list of {"column", "method", "value"} (at most 200); method is value (the default), forward or backward; value must suit the column: a number for number columns, true/false for boolean ones, text for text, dates ("2024-03-05") and timestamps. E.g. [{"column": "qty", "value": 0}, {"column": "region", "method": "forward"}].',
      required: true,
      fields: [
        { name: 'column', kind: 'column', label: 'Column', required: true },
        { name: 'method', kind: 'enum', label: 'Fill with', options: ['value', 'forward', 'backward'], required: false },
        { name: 'value', kind: 'value', label: 'Value', type_from: 'column', required: false },
      ],
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '填充空值',
      description:
        '按行的顺序填充列中的空值（NULL）：填固定值、用上方最近的非空值填充（向下填充），或用下方最近的非空值填充（向上填充）。最开头（向下填充）或最末尾（向上填充）的空值保持为空。',
      params: {
        fills: {
          label: '填充方式',
          help: '由 {"column", "method", "value"} 组成的 JSON 列表（最多 200 项）；method 可选 value（默认）、forward（用上方的值）或 backward（用下方的值）；value 要符合列的类型：数字列填数字，布尔列填 true/false，文本、日期（"2024-03-05"）和日期时间列填文本。例如 [{"column": "qty", "value": 0}, {"column": "region", "method": "forward"}]。',
          fields: { column: '列', method: '填充为', value: '值' },
        },
      },
      cost_note: '免费。',
    },
  },
};

/** Whether a JSON value may stand for a value of the column's type (then bound and cast by DuckDB). */
function fillValueFits(value: unknown, type: string): string | null {
  switch (typeCategory(type)) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'a number';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'true or false';
    case 'text':
    case 'date':
    case 'timestamp':
    case 'time':
    case 'uuid':
      return typeof value === 'string' && value.length <= 10_000 ? null : 'text';
    default:
      return 'nothing';
  }
}

function fillPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = singleInput(inputs);
  const params = resolveParams(description, stored, vars);
  const fills = new Map<Column, { method: 'value' | 'forward' | 'backward'; value?: SqlParam }>();
  objectList(params, 'fills').forEach((item, i) => {
    const column = dataColumn(columns, item.column, ['fills', i, 'column']);
    if (fills.has(column)) throw paramProblem(['fills', i, 'column'], 'server.params.duplicateColumn', { column: column.name });
    const method = item.method ?? 'value';
    if (method !== 'value' && method !== 'forward' && method !== 'backward')
      throw paramProblem(['fills', i, 'method'], 'server.params.enum', { values: 'value, forward, backward' });
    if (method !== 'value') return fills.set(column, { method });
    const expected = fillValueFits(item.value, column.type);
    if (expected === 'nothing' || !PLAIN_TYPE.test(column.type))
      throw paramProblem(['fills', i, 'column'], 'server.steps.fillType', { column: column.name, type: column.type });
    if (expected) throw paramProblem(['fills', i, 'value'], 'server.steps.fillValueType', { column: column.name, type: column.type });
    fills.set(column, { method, value: item.value as SqlParam });
  });
  return { columns, fills };
}

/**
 * NULLs of each listed column replaced by a value (given as JSON of the column's kind, bound and
 * converted to the column's type), by the last non-NULL value above (forward) or the next one
 * below (backward), in input order. Leading (forward) or trailing (backward) NULLs stay NULL.
 */
const runner: SqlRunner = {
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => fillPlan(inputs, params, vars).columns,
  toSql(inputs, params, vars) {
    const { columns, fills } = fillPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const bound: SqlParam[] = [];
    const replaced = new Map<Column, string>();
    for (const [column, fill] of fills) {
      const c = q(column.name);
      if (fill.method === 'value') {
        bound.push(fill.value!);
        replaced.set(column, `coalesce(${c}, CAST($${bound.length} AS ${column.type}))`);
      } else if (fill.method === 'forward') {
        replaced.set(column, `last_value(${c} IGNORE NULLS) OVER (ORDER BY ${POS} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)`);
      } else {
        replaced.set(column, `first_value(${c} IGNORE NULLS) OVER (ORDER BY ${POS} ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)`);
      }
    }
    return { sql: `SELECT ${listWith(columns, replaced).join(', ')} FROM ${withPositions(inputs[0].table)} ORDER BY ${POS}`, params: bound };
  },
};

export const fillNulls: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
