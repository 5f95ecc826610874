import type { StepType, StepTypeDescription } from './step-type';
import type { ParamValues } from '../params';
import { expectInputs, findColumn, ID_COLUMN, q, RECORD_ID, resolveParams, PLAIN_TYPE, sameName, widenTypes } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { Column, SqlRunner, Vars } from '../runners/types';
import { POS } from '../sql-steps/row-positions';

const description: StepTypeDescription = {
  id: 'union',
  name: 'Append rows',
  description:
    "Stack the rows of two or more inputs (tables or files with the same columns) one after another into one long table: append, concatenate, UNION ALL. E.g. this month's sales below last month's.",
  category: 'combine',
  tags: ['union', 'append', 'stack', 'combine'],
  params: [
    {
      name: 'match_by',
      type: 'enum',
      label: 'Line columns up by',
      help: "name: columns with the same name go together; missing ones are left empty. position: the first column with the first, and so on, under the first input's names. Columns of different types become text, or the wider number type.",
      required: false,
      default: 'name',
      options: ['name', 'position'],
    },
    {
      name: 'add_source_column',
      type: 'boolean',
      label: 'Add a source column',
      help: 'On: add a _source column telling which input each row came from: 1 for the first, 2 for the second, and so on.',
      required: false,
      default: false,
    },
  ],
  inputs: { min: 2, max: null },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '追加行',
      description: '把两个或更多输入的行上下堆叠成一张长表（追加、拼接、UNION ALL），例如把本月的销售记录接在上月的下面。',
      params: {
        match_by: {
          label: '列的对齐方式',
          help: 'name：同名的列对齐，缺少的列留空。position：按位置对齐，第一列对第一列，依此类推，使用第一个输入的列名。类型不同的列会变成文本，或更宽的数字类型。',
        },
        add_source_column: { label: '添加来源列', help: '开启：增加 _source 列，标明每一行来自哪个输入：第一个为 1，第二个为 2，依此类推。' },
      },
      cost_note: '免费。',
    },
  },
};

const SOURCE_COLUMN = '_source';
/** Types the union casts to are its own choice (widenTypes) or an input's, kept only if plainly spelt. */

function unionPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  expectInputs(inputs, 2, null);
  const params = resolveParams(description, stored, vars);
  const matchBy = params.match_by;
  if (matchBy !== 'name' && matchBy !== 'position') throw paramProblem(['match_by'], 'server.params.enum', { values: 'name, position' });
  if (typeof params.add_source_column !== 'boolean') throw paramProblem(['add_source_column'], 'server.params.boolean');
  const data = inputs.map((cols) => cols.filter((c) => c.name !== RECORD_ID));
  // For each output column, which column of each input feeds it (null: none, left empty).
  const out: { column: Column; from: (Column | null)[] }[] = [];
  if (matchBy === 'name') {
    for (const [i, cols] of data.entries()) {
      for (const c of cols) {
        let slot = out.find((o) => sameName(o.column.name, c.name));
        if (!slot) out.push((slot = { column: { name: c.name, type: c.type }, from: inputs.map(() => null) }));
        else slot.column = { name: slot.column.name, type: widenTypes(slot.column.type, c.type) };
        slot.from[i] = c;
      }
    }
  } else {
    for (const [i, cols] of data.entries()) {
      if (cols.length > data[0].length)
        throw paramProblem(['match_by'], 'server.steps.unionWidth', { input: i + 1, count: cols.length, expected: data[0].length });
    }
    for (const [k, c] of data[0].entries()) {
      const from = data.map((cols) => cols[k] ?? null);
      const type = from.reduce((t, f) => (f ? widenTypes(t, f.type) : t), c.type);
      out.push({ column: { name: c.name, type }, from });
    }
  }
  if (params.add_source_column && out.some((o) => sameName(o.column.name, SOURCE_COLUMN)))
    throw paramProblem(['add_source_column'], 'server.steps.duplicateOutput', { column: SOURCE_COLUMN });
  return { out, addSource: params.add_source_column };
}

/**
 * Rows of the first input, then the second's, and so on, each in its order. Columns line up by
 * name (case-insensitively; first spelling and position win) or by position (the first input's
 * names); a column an input lacks is NULL there. Types widen (widenTypes): integers to the larger,
 * other numbers to DOUBLE, DATE with TIMESTAMP to TIMESTAMP, anything else to text. Every record
 * keeps its `_id`; the same dataset appended twice gets new ids for the repeats (writer).
 * `_source` is the input's number, from 1.
 */
const runner: SqlRunner = {
  kind: 'sql',
  outputColumns(inputs, params, vars) {
    const { out, addSource } = unionPlan(inputs, params, vars);
    return [ID_COLUMN, ...out.map((o) => o.column), ...(addSource ? [{ name: SOURCE_COLUMN, type: 'BIGINT' }] : [])];
  },
  toSql(inputs, params, vars) {
    const { out, addSource } = unionPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const [which, pos] = [q('__stepwise_input'), POS];
    const cast = (expr: string, type: string) => (PLAIN_TYPE.test(type) ? `CAST(${expr} AS ${type})` : expr);
    const parts = inputs.map((input, i) => {
      const id = findColumn(input.columns, RECORD_ID) ? q(RECORD_ID) : 'CAST(NULL AS VARCHAR)';
      const list = out.map(({ column, from }) => {
        const source = from[i];
        if (!source) return `${cast('NULL', column.type)} AS ${q(column.name)}`;
        return `${source.type === column.type ? q(source.name) : cast(q(source.name), column.type)} AS ${q(column.name)}`;
      });
      const source = addSource ? [`CAST(${i + 1} AS BIGINT) AS ${q(SOURCE_COLUMN)}`] : [];
      return `SELECT ${[`${id} AS ${q(RECORD_ID)}`, ...list, ...source, `${i} AS ${which}`, `row_number() OVER () AS ${pos}`].join(', ')} FROM ${input.table}`;
    });
    return { sql: `SELECT * EXCLUDE (${which}, ${pos}) FROM (${parts.join(' UNION ALL ')}) ORDER BY ${which}, ${pos}`, params: [] };
  },
};

export const union: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
