import type { StepType, StepTypeDescription } from './step-type';
import type { ParamValues } from '../params';
import { resolveParams } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { Column, SqlParam, SqlRunner, Vars } from '../runners/types';
import { POS, withPositions } from '../sql-steps/row-positions';
import { enumParam, integerParam } from '../sql-steps/param-values';
import { singleInput } from '../sql-steps/output-columns';

const description: StepTypeDescription = {
  id: 'sample',
  name: 'Sample rows',
  description:
    'Keep some of the rows, in their original order: a random sample (the same seed picks the same rows every run), the first rows, or every n-th row. Choose how many as a number of rows or a percentage.',
  category: 'transform',
  tags: ['random', 'sampling', 'rows', 'subset'],
  params: [
    {
      name: 'method',
      type: 'enum',
      label: 'How to pick',
      help: 'random: rows picked at random (repeatable with the seed). first: the first rows. every_nth: rows 1, 1+n, 1+2n…',
      required: true,
      default: 'random',
      options: ['random', 'first', 'every_nth'],
    },
    {
      name: 'size',
      type: 'enum',
      label: 'Size as',
      help: 'rows: keep "Number of rows" rows. percent: keep "Percentage" of the rows, rounded to the nearest row.',
      required: true,
      default: 'rows',
      options: ['rows', 'percent'],
    },
    {
      name: 'rows',
      type: 'number',
      label: 'Number of rows',
      help: 'How many rows to keep (random and first, when the size is in rows).',
      required: false,
      default: 100,
      min: 1,
      max: 10_000_000,
      integer: true,
    },
    {
      name: 'percent',
      type: 'number',
      label: 'Percentage',
      help: 'Share of the rows to keep, more than 0 up to 100 (random and first, when the size is a percentage).',
      required: false,
      default: 10,
      min: 0,
      max: 100,
    },
    {
      name: 'every',
      type: 'number',
      label: 'Every n-th row',
      help: 'For every_nth: keep one row in this many, starting with the first.',
      required: false,
      default: 10,
      min: 1,
      max: 1_000_000,
      integer: true,
    },
    {
      name: 'seed',
      type: 'number',
      label: 'Seed',
      help: 'For random: any whole number; the same seed over the same input picks the same rows, another seed other rows.',
      required: false,
      default: 42,
      min: 0,
      max: 2_147_483_647,
      integer: true,
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '抽样',
      description: '保留部分行，并保持原来的顺序：随机抽样（同一个种子每次抽到相同的行）、取前若干行，或每隔 n 行取一行。数量可以是行数或百分比。',
      params: {
        method: { label: '抽取方式', help: 'random：随机抽取（用种子可重复）。first：取前面的行。every_nth：取第 1、1+n、1+2n… 行。' },
        size: { label: '数量单位', help: 'rows：保留“行数”行。percent：保留“百分比”的行，四舍五入到整行。' },
        rows: { label: '行数', help: '保留多少行（random 和 first，数量单位为行时）。' },
        percent: { label: '百分比', help: '保留的行所占比例，大于 0 且不超过 100（random 和 first，数量单位为百分比时）。' },
        every: { label: '每 n 行', help: '用于 every_nth：每这么多行保留一行，从第一行开始。' },
        seed: { label: '随机种子', help: '用于 random：任意整数；同一种子在相同输入上抽到相同的行，换一个种子则抽到别的行。' },
      },
      cost_note: '免费。',
    },
  },
};

function samplePlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = singleInput(inputs);
  const params = resolveParams(description, stored, vars);
  const method = enumParam(params, 'method', ['random', 'first', 'every_nth']);
  const size = enumParam(params, 'size', ['rows', 'percent']);
  const rows = integerParam(params, 'rows', 1);
  const percent = params.percent;
  if (typeof percent !== 'number' || !Number.isFinite(percent)) throw paramProblem(['percent'], 'server.params.number');
  if (percent <= 0) throw paramProblem(['percent'], 'server.params.minimum', { limit: 0 });
  if (percent > 100) throw paramProblem(['percent'], 'server.params.maximum', { limit: 100 });
  const every = integerParam(params, 'every', 1);
  const seed = integerParam(params, 'seed', 0);
  return { columns, method, size, rows, percent, every, seed };
}

/**
 * Some rows, in input order, each keeping its `_id`. `random` ranks rows by a hash of their
 * position and the seed, so the same seed over the same input picks the same rows in every run;
 * `first` takes the top; `every_nth` takes rows 1, 1+n, 1+2n… How many: `rows`, or `percent` of
 * the input rounded to the nearest row (every_nth ignores both).
 */
const runner: SqlRunner = {
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => samplePlan(inputs, params, vars).columns,
  toSql(inputs, params, vars) {
    const { method, size, rows, percent, every, seed } = samplePlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const from = `${withPositions(inputs[0].table)}`;
    if (method === 'every_nth') {
      return { sql: `SELECT * EXCLUDE (${POS}) FROM ${from} WHERE (${POS} - 1) % $1 = 0 ORDER BY ${POS}`, params: [every] };
    }
    const rank = method === 'random' ? `row_number() OVER (ORDER BY hash(${POS}, CAST($1 AS BIGINT)), ${POS})` : POS;
    const bound: SqlParam[] = method === 'random' ? [seed] : [];
    bound.push(size === 'rows' ? rows : percent);
    const n = `$${bound.length}`;
    const limit = size === 'rows' ? n : `round(count(*) OVER () * CAST(${n} AS DOUBLE) / 100)`;
    return { sql: `SELECT * EXCLUDE (${POS}) FROM ${from} QUALIFY ${rank} <= ${limit} ORDER BY ${POS}`, params: bound };
  },
};

export const sample: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
