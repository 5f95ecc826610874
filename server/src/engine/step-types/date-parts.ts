import type { StepType, StepTypeDescription } from './step-type';
import type { ParamValues } from '../params';
import { q, resolveParams, typeCategory } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { Column, SqlRunner, Vars } from '../runners/types';
import { singleInput, dataColumn, appended } from '../sql-steps/output-columns';
import type { Loc } from '../sql-steps/output-columns';

const description: StepTypeDescription = {
  id: 'date_parts',
  name: 'Date parts',
  description:
    'Take parts of a date or timestamp column into new columns named column_part: year, quarter, month, day, weekday (1 = Monday … 7 = Sunday), ISO week, day of year, hour, minute, or the date as YYYY-MM-DD text. A text column is read with a date format you give.',
  category: 'transform',
  tags: ['date', 'time', 'year', 'month', 'weekday'],
  params: [
    { name: 'column', type: 'column', label: 'Date column', help: 'A date or timestamp column, or a text column when you give a format.', required: true },
    {
      name: 'parts',
      type: 'json',
      label: 'Parts',
      help: 'A JSON list of parts (at most 20): year, quarter, month, day, weekday, week, day_of_year, hour, minute, iso_date. E.g. ["year", "month"] adds order_date_year and order_date_month.',
      required: true,
      default: ['year', 'month', 'day'],
    },
    {
      name: 'format',
      type: 'string',
      label: 'Text format',
      help: 'For a text column: how its dates are written, in strptime codes, e.g. %d/%m/%Y or %Y-%m-%d %H:%M. Text that does not fit gives empty parts.',
      required: false,
      default: '',
      max_length: 100,
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '日期拆分',
      description:
        '从日期或日期时间列中取出各部分，写入名为“列名_部分”的新列：年、季度、月、日、星期（1 = 周一 … 7 = 周日）、ISO 周数、一年中的第几天、小时、分钟，或 YYYY-MM-DD 格式的日期文本。文本列需要给出日期格式才能读取。',
      params: {
        column: { label: '日期列', help: '日期或日期时间列；给出格式时也可以是文本列。' },
        parts: {
          label: '部分',
          help: '由部分名称组成的 JSON 列表（最多 20 项）：year、quarter、month、day、weekday、week、day_of_year、hour、minute、iso_date。例如 ["year", "month"] 会新增 order_date_year 和 order_date_month。',
        },
        format: { label: '文本格式', help: '用于文本列：日期的写法，使用 strptime 格式代码，例如 %d/%m/%Y 或 %Y-%m-%d %H:%M。不符合格式的文本得到空值。' },
      },
      cost_note: '免费。',
    },
  },
};

/** Each part: its SQL over a DATE/TIMESTAMP expression, and the type it gives. */
export const DATE_PARTS: Record<string, { sql: (d: string) => string; type: string }> = {
  year: { sql: (d) => `year(${d})`, type: 'BIGINT' },
  quarter: { sql: (d) => `quarter(${d})`, type: 'BIGINT' },
  month: { sql: (d) => `month(${d})`, type: 'BIGINT' },
  day: { sql: (d) => `day(${d})`, type: 'BIGINT' },
  weekday: { sql: (d) => `isodow(${d})`, type: 'BIGINT' },
  week: { sql: (d) => `weekofyear(${d})`, type: 'BIGINT' },
  day_of_year: { sql: (d) => `dayofyear(${d})`, type: 'BIGINT' },
  hour: { sql: (d) => `hour(${d})`, type: 'BIGINT' },
  minute: { sql: (d) => `minute(${d})`, type: 'BIGINT' },
  iso_date: { sql: (d) => `strftime(CAST(${d} AS DATE), '%Y-%m-%d')`, type: 'VARCHAR' },
};

function datePartsPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = singleInput(inputs);
  const params = resolveParams(description, stored, vars);
  const column = dataColumn(columns, params.column, ['column']);
  const format = typeof params.format === 'string' ? params.format : '';
  if (format.length > 100 || format.includes('\0')) throw paramProblem(['format'], 'server.params.maxLength', { limit: 100 });
  const category = typeCategory(column.type);
  if (!['date', 'timestamp', 'unknown'].includes(category) && !(category === 'text' && format)) {
    throw paramProblem(['column'], 'server.steps.notDate', { column: column.name, type: column.type });
  }
  const list = params.parts;
  if (!Array.isArray(list) || !list.length || list.length > 20) throw paramProblem(['parts'], 'server.steps.badList', { limit: 20 });
  const prefix = `${column.name}_`;
  const parts = list.map((part: unknown, i) => {
    if (typeof part !== 'string' || !Object.prototype.hasOwnProperty.call(DATE_PARTS, part)) {
      throw paramProblem(['parts', i], 'server.steps.datePart', { name: String(part ?? ''), parts: Object.keys(DATE_PARTS).join(', ') });
    }
    return { part, column: { name: `${prefix}${part}`, type: DATE_PARTS[part].type }, loc: ['parts', i] as Loc };
  });
  return { columns, column, format: category === 'text' ? format : '', parts, out: appended(columns, parts) };
}

/**
 * Parts of a date or timestamp column as new columns named `column_part` (year, quarter, month,
 * day, weekday 1 = Monday … 7 = Sunday, ISO week, day of year, hour, minute, the date as
 * YYYY-MM-DD text). A text column is read with the given strptime format (e.g. %d/%m/%Y; bound),
 * text that does not fit giving NULL parts; without a format it is refused, naming the column.
 */
const runner: SqlRunner = {
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => datePartsPlan(inputs, params, vars).out,
  toSql(inputs, params, vars) {
    const { columns, column, format, parts } = datePartsPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const d = format ? `try_strptime(${q(column.name)}, $1)` : q(column.name);
    const list = parts.map((p) => `${DATE_PARTS[p.part].sql(d)} AS ${q(p.column.name)}`);
    return { sql: `SELECT ${[...columns.map((k) => q(k.name)), ...list].join(', ')} FROM ${inputs[0].table}`, params: format ? [format] : [] };
  },
};

export const dateParts: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
