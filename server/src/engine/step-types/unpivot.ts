import type { StepType, StepTypeDescription } from './step-type';
import type { ParamValues } from '../params';
import { columnsParam, q, resolveParams, typeCategory, newColumnName, PLAIN_TYPE } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { Column, SqlRunner, Vars } from '../runners/types';
import { POS, withPositions } from '../sql-steps/row-positions';
import { booleanParam } from '../sql-steps/param-values';
import { singleInput, dataColumn, appended } from '../sql-steps/output-columns';

const description: StepTypeDescription = {
  id: 'unpivot',
  name: 'Unpivot (columns to rows)',
  description:
    "Turn columns into rows: each row becomes one row per chosen column, with the column's name in a name column and its value in a value column, e.g. Jan, Feb, Mar columns become month + sales rows. The other columns are repeated on each new row.",
  category: 'transform',
  tags: ['unpivot', 'melt', 'reshape', 'long'],
  params: [
    {
      name: 'columns',
      type: 'columns',
      label: 'Columns to turn into rows',
      help: 'Their values must be of one kind (numbers, dates, text…), unless you turn on "As text".',
      required: true,
    },
    {
      name: 'name_column',
      type: 'string',
      label: 'Name column',
      help: 'Name of the new column holding the former column names.',
      required: true,
      default: 'name',
      max_length: 128,
    },
    {
      name: 'value_column',
      type: 'string',
      label: 'Value column',
      help: 'Name of the new column holding the values.',
      required: true,
      default: 'value',
      max_length: 128,
    },
    {
      name: 'as_text',
      type: 'boolean',
      label: 'As text',
      help: 'Write every value as text, so columns of different kinds (e.g. numbers and dates) can be turned into rows together.',
      required: false,
      default: false,
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '逆透视（列转行）',
      description:
        '把列变成行：每一行按所选的每一列拆成一行，列名写入名称列，值写入取值列，例如 Jan、Feb、Mar 三列变成“月份 + 销售额”的多行。其他列在每个新行上重复。',
      params: {
        columns: { label: '转成行的列', help: '这些列的值必须是同一种类（数字、日期、文本…），除非开启“转为文本”。' },
        name_column: { label: '名称列', help: '存放原列名的新列的名称。' },
        value_column: { label: '取值列', help: '存放值的新列的名称。' },
        as_text: { label: '转为文本', help: '把所有值写成文本，这样不同种类的列（例如数字和日期）也能一起转成行。' },
      },
      cost_note: '免费。',
    },
  },
};

/** The one type a set of columns' values can share, or null when numbers, text, dates… are mixed. */
function sharedType(types: string[]): string | null {
  if (types.every((t) => t === types[0])) return types[0];
  if (types.every((t) => typeCategory(t) === 'number')) return types.every((t) => /^U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?$/i.test(t)) ? 'BIGINT' : 'DOUBLE';
  if (types.every((t) => ['date', 'timestamp'].includes(typeCategory(t)))) return 'TIMESTAMP';
  return null;
}

function unpivotPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = singleInput(inputs);
  const params = resolveParams(description, stored, vars);
  const listed = columnsParam(params, 'columns').map((name, i) => dataColumn(columns, name, ['columns', i]));
  if (!listed.length) throw paramProblem(['columns'], 'server.params.required');
  if (listed.length > 500) throw paramProblem(['columns'], 'server.params.maximum', { limit: 500 });
  listed.forEach((c, i) => {
    if (listed.indexOf(c) !== i) throw paramProblem(['columns', i], 'server.params.duplicateColumn', { column: c.name });
  });
  const asText = booleanParam(params, 'as_text');
  const nameColumn = newColumnName(params.name_column, ['name_column']);
  const valueColumn = newColumnName(params.value_column, ['value_column']);
  // A type only DuckDB knows yet (a formula upstream) passes every check, as elsewhere; DuckDB unifies.
  let type = asText ? 'VARCHAR' : listed.some((c) => c.type === 'UNKNOWN') ? 'UNKNOWN' : sharedType(listed.map((c) => c.type));
  if (!type) {
    const other = listed.find((c) => sharedType([listed[0].type, c.type]) === null)!;
    throw paramProblem(['columns', listed.indexOf(other)], 'server.steps.unpivotTypes', {
      column: listed[0].name,
      type: listed[0].type,
      other: other.name,
      otherType: other.type,
    });
  }
  // A nested or unusual type is kept only when every column has it (no CAST to it is written).
  if (type !== 'UNKNOWN' && !PLAIN_TYPE.test(type) && listed.some((c) => c.type !== type)) type = 'VARCHAR';
  const kept = columns.filter((c) => !listed.includes(c));
  const out = appended(kept, [
    { column: { name: nameColumn, type: 'VARCHAR' }, loc: ['name_column'] },
    { column: { name: valueColumn, type }, loc: ['value_column'] },
  ]);
  return { listed, kept, out, nameColumn, valueColumn, type };
}

/**
 * Each input row becomes one row per listed column (NULL values too), in input order then the
 * listed order: the other columns, then the column's name and its value. Values share one type:
 * the same type stays, integers widen to BIGINT, other numbers DOUBLE, dates and timestamps
 * TIMESTAMP; any other mix is refused unless `as_text`. The first row of each record keeps its
 * `_id`; the others get new ids from the writer.
 */
const runner: SqlRunner = {
  kind: 'sql',
  outputColumns: (inputs, params, vars) => unpivotPlan(inputs, params, vars).out,
  toSql(inputs, params, vars) {
    const { listed, kept, nameColumn, valueColumn, type } = unpivotPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const which = q('__stepwise_which');
    const parts = listed.map((c, i) => {
      const value = c.type === type || type === 'UNKNOWN' ? q(c.name) : `CAST(${q(c.name)} AS ${type})`;
      return `SELECT ${[...kept.map((k) => q(k.name)), `CAST($${i + 1} AS VARCHAR) AS ${q(nameColumn)}`, `${value} AS ${q(valueColumn)}`, POS, `${i} AS ${which}`].join(', ')} FROM ${withPositions(inputs[0].table)}`;
    });
    return { sql: `SELECT * EXCLUDE (${POS}, ${which}) FROM (${parts.join(' UNION ALL ')}) ORDER BY ${POS}, ${which}`, params: listed.map((c) => c.name) };
  },
};

export const unpivot: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
