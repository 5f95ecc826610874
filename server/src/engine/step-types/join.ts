import type { StepType, StepTypeDescription } from './step-type';
import type { ParamValues } from '../params';
import { columnsParam, expectInputs, findColumn, ID_COLUMN, q, RECORD_ID, requireColumn, resolveParams, sameName, typeCategory } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { Column, SqlRunner, Vars } from '../runners/types';

const description: StepTypeDescription = {
  id: 'join',
  name: 'Join tables',
  description:
    'Combine two tables side by side by matching key columns, like a lookup, VLOOKUP or SQL JOIN: each row of the first table is merged with the rows of the second table that have the same key, e.g. orders with their customers by customer_id.',
  category: 'combine',
  tags: ['join', 'merge', 'lookup', 'combine'],
  params: [
    {
      name: 'left_on',
      type: 'columns',
      label: 'Key columns of the first table',
      help: 'The columns of the first input to match on.',
      required: true,
      input_index: 0,
    },
    {
      name: 'right_on',
      type: 'columns',
      label: 'Key columns of the second table',
      help: 'The columns of the second input to match on, in the same order.',
      required: true,
      input_index: 1,
      same_length_as: 'left_on',
    },
    {
      name: 'how',
      type: 'enum',
      label: 'Join type',
      help: 'inner: only rows with a match in both. left: every row of the first table. right: every row of the second. full: every row of both.',
      required: false,
      default: 'inner',
      options: ['inner', 'left', 'right', 'full'],
    },
    {
      name: 'suffix',
      type: 'string',
      label: 'Suffix for clashing names',
      help: "Added to the names of the second table's columns that already exist in the first.",
      required: false,
      default: '_right',
      max_length: 32,
    },
  ],
  inputs: { min: 2, max: 2 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '连接表',
      description:
        '按匹配的键列把两张表左右合并，类似查找、VLOOKUP 或 SQL JOIN：第一张表的每一行与第二张表中键相同的行合并，例如按 customer_id 把订单和客户关联起来。',
      params: {
        left_on: { label: '第一张表的键列', help: '第一个输入中用于匹配的列。' },
        right_on: { label: '第二张表的键列', help: '第二个输入中用于匹配的列，顺序与前者对应。' },
        how: { label: '连接方式', help: 'inner：只保留两边都匹配的行。left：保留第一张表的所有行。right：保留第二张表的所有行。full：保留两张表的所有行。' },
        suffix: { label: '重名列后缀', help: '第二张表中与第一张表重名的列，会在列名后加上这个后缀。' },
      },
      cost_note: '免费。',
    },
  },
};

const JOIN_SQL = { inner: 'INNER JOIN', left: 'LEFT JOIN', right: 'RIGHT JOIN', full: 'FULL OUTER JOIN' } as const;

function joinPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  expectInputs(inputs, 2, 2);
  const [left, right] = inputs;
  const params = resolveParams(description, stored, vars);
  const leftOn = columnsParam(params, 'left_on');
  const rightOn = columnsParam(params, 'right_on');
  if (!leftOn.length) throw paramProblem(['left_on'], 'server.params.required');
  if (!rightOn.length) throw paramProblem(['right_on'], 'server.params.required');
  if (leftOn.length !== rightOn.length) throw paramProblem(['right_on'], 'server.params.sameLength', { other: 'left_on', count: leftOn.length });
  const pairs = leftOn.map((name, i) => {
    const l = requireColumn(left, name, ['left_on', i]);
    const r = requireColumn(right, rightOn[i], ['right_on', i]);
    const group = (t: string) => {
      const c = typeCategory(t);
      return c === 'date' || c === 'timestamp' ? 'time' : c;
    };
    if (group(l.type) !== group(r.type) && group(l.type) !== 'unknown' && group(r.type) !== 'unknown') {
      throw paramProblem(['right_on', i], 'server.steps.joinKeyTypes', { left: l.name, leftType: l.type, right: r.name, rightType: r.type });
    }
    return { l, r };
  });
  const how = params.how;
  if (typeof how !== 'string' || !Object.prototype.hasOwnProperty.call(JOIN_SQL, how))
    throw paramProblem(['how'], 'server.params.enum', { values: Object.keys(JOIN_SQL).join(', ') });
  const suffix = params.suffix ?? '';
  if (typeof suffix !== 'string' || suffix.includes('\0')) throw paramProblem(['suffix'], 'server.params.string');
  if (suffix.length > 32) throw paramProblem(['suffix'], 'server.params.maxLength', { limit: 32 });
  const leftCols = left.filter((c) => c.name !== RECORD_ID);
  const taken = new Set(leftCols.map((c) => c.name.toLowerCase()));
  const rightCols = right
    .filter((c) => c.name !== RECORD_ID)
    .map((c) => {
      const name = taken.has(c.name.toLowerCase()) ? `${c.name}${suffix}` : c.name;
      if (taken.has(name.toLowerCase()) || sameName(name, RECORD_ID)) throw paramProblem(['suffix'], 'server.steps.duplicateOutput', { column: name });
      taken.add(name.toLowerCase());
      return { from: c, to: { name, type: c.type } };
    });
  return { pairs, how: how as keyof typeof JOIN_SQL, leftCols, rightCols };
}

/**
 * Every column of the first table, then every column of the second (its key columns too), a name
 * the first already has getting `suffix`. Rows come in the first table's order, then the second's
 * (unmatched rows of the second last). NULL keys match nothing. A row's `_id` is its first-table
 * record's, or the second's when it has none (right and full joins); when a first-table record
 * matches several rows, the writer gives the repeats new ids (datasets README).
 */
const runner: SqlRunner = {
  kind: 'sql',
  outputColumns(inputs, params, vars) {
    const { leftCols, rightCols } = joinPlan(inputs, params, vars);
    return [ID_COLUMN, ...leftCols, ...rightCols.map((c) => c.to)];
  },
  toSql(inputs, params, vars) {
    const { pairs, how, leftCols, rightCols } = joinPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const [l, r] = [q('__stepwise_l'), q('__stepwise_r')];
    const [lpos, rpos] = [q('__stepwise_lpos'), q('__stepwise_rpos')];
    const hasId = (i: number) => Boolean(findColumn(inputs[i].columns, RECORD_ID));
    const id = `coalesce(${hasId(0) ? `${l}.${q(RECORD_ID)}` : 'NULL'}, ${hasId(1) ? `${r}.${q(RECORD_ID)}` : 'NULL'})`;
    const list = [
      `${id} AS ${q(RECORD_ID)}`,
      ...leftCols.map((c) => `${l}.${q(c.name)}`),
      ...rightCols.map(({ from, to }) => `${r}.${q(from.name)} AS ${q(to.name)}`),
    ];
    const on = pairs.map((p) => `${l}.${q(p.l.name)} = ${r}.${q(p.r.name)}`).join(' AND ');
    const side = (table: string, pos: string) => `(SELECT *, row_number() OVER () AS ${pos} FROM ${table})`;
    return {
      sql: `SELECT ${list.join(', ')} FROM ${side(inputs[0].table, lpos)} AS ${l} ${JOIN_SQL[how]} ${side(inputs[1].table, rpos)} AS ${r} ON ${on} ORDER BY ${l}.${lpos} ASC NULLS LAST, ${r}.${rpos} ASC NULLS LAST`,
      params: [],
    };
  },
};

export const join: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
