import type { StepType, StepTypeDescription } from './step-type';
import type { ParamValues } from '../params';
import { q, resolveParams } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { Column, SqlRunner, Vars } from '../runners/types';
import { enumParam, objectList } from '../sql-steps/param-values';
import { singleInput, dataColumn, listWith } from '../sql-steps/output-columns';

const description: StepTypeDescription = {
  id: 'cast_columns',
  name: 'Convert column types',
  description:
    'Change the type of columns, e.g. turn the text "42" into the number 42 or "2024-03-05" into a date. Types: text, integer (whole numbers), number (decimals, approximate), decimal (exact, 4 places unless you give a scale), boolean, date, timestamp, json. Values that do not convert either stop the step with an error or become empty, as you choose.',
  category: 'transform',
  tags: ['columns', 'types', 'convert', 'cast'],
  params: [
    {
      name: 'casts',
      type: 'json',
      label: 'Conversions',
      help: 'A JSON list of {"column", "type"} (at most 200); type is one of text, integer, number, decimal, boolean, date, timestamp, json. A decimal may add "scale" (0–18 places), e.g. [{"column": "price", "type": "decimal", "scale": 2}].',
      required: true,
      fields: [
        { name: 'column', kind: 'column', label: 'Column', required: true },
        {
          name: 'type',
          kind: 'enum',
          label: 'New type',
          options: ['text', 'integer', 'number', 'decimal', 'boolean', 'date', 'timestamp', 'json'],
          required: true,
        },
        { name: 'scale', kind: 'number', label: 'Decimal places', required: false },
      ],
    },
    {
      name: 'on_error',
      type: 'enum',
      label: 'When a value does not convert',
      help: 'fail: stop the step and say which value did not convert. null: leave that value empty (NULL) and go on.',
      required: true,
      default: 'fail',
      options: ['fail', 'null'],
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '转换列类型',
      description:
        '改变列的类型，例如把文本 "42" 变成数字 42，或把 "2024-03-05" 变成日期。可选类型：text（文本）、integer（整数）、number（小数，近似值）、decimal（精确小数，默认 4 位，可指定 scale）、boolean（真/假）、date（日期）、timestamp（日期时间）、json。无法转换的值可以选择让步骤报错停止，或变成空值。',
      params: {
        casts: {
          label: '转换列表',
          help: '由 {"column", "type"} 组成的 JSON 列表（最多 200 项）；type 可选 text、integer、number、decimal、boolean、date、timestamp、json。decimal 可加 "scale"（0–18 位小数），例如 [{"column": "price", "type": "decimal", "scale": 2}]。',
          fields: { column: '列', type: '新类型', scale: '小数位数' },
        },
        on_error: { label: '值无法转换时', help: 'fail：停止步骤并指出哪个值无法转换。null：把该值置空（NULL）并继续。' },
      },
      cost_note: '免费。',
    },
  },
};

/** What a person picks → the DuckDB type written. Decimals keep 4 places unless told otherwise. */
export const CAST_TYPES: Record<string, (scale?: number) => string> = {
  text: () => 'VARCHAR',
  integer: () => 'BIGINT',
  number: () => 'DOUBLE',
  decimal: (scale = 4) => `DECIMAL(18,${scale})`,
  boolean: () => 'BOOLEAN',
  date: () => 'DATE',
  timestamp: () => 'TIMESTAMP',
  json: () => 'JSON',
};

function castPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = singleInput(inputs);
  const params = resolveParams(description, stored, vars);
  const onError = enumParam(params, 'on_error', ['fail', 'null']);
  const casts = new Map<Column, string>();
  objectList(params, 'casts').forEach((item, i) => {
    const column = dataColumn(columns, item.column, ['casts', i, 'column']);
    if (casts.has(column)) throw paramProblem(['casts', i, 'column'], 'server.params.duplicateColumn', { column: column.name });
    const type = item.type;
    if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(CAST_TYPES, type)) {
      throw paramProblem(['casts', i, 'type'], 'server.steps.castType', { type: String(type ?? ''), types: Object.keys(CAST_TYPES).join(', ') });
    }
    let scale: number | undefined;
    if (item.scale !== undefined && item.scale !== null) {
      if (type !== 'decimal' || typeof item.scale !== 'number' || !Number.isInteger(item.scale) || item.scale < 0 || item.scale > 18) {
        throw paramProblem(['casts', i, 'scale'], 'server.steps.decimalScale');
      }
      scale = item.scale;
    }
    casts.set(column, CAST_TYPES[type](scale));
  });
  return { columns, casts, onError, out: columns.map((c) => (casts.has(c) ? { name: c.name, type: casts.get(c)! } : c)) };
}

/**
 * Each listed column converted in place. A value that does not convert fails the step with
 * DuckDB's reason (`fail`) or becomes NULL (`null`, TRY_CAST). NULL stays NULL.
 */
const runner: SqlRunner = {
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => castPlan(inputs, params, vars).out,
  toSql(inputs, params, vars) {
    const { columns, casts, onError } = castPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const fn = onError === 'null' ? 'TRY_CAST' : 'CAST';
    const list = listWith(columns, new Map([...casts].map(([c, type]) => [c, `${fn}(${q(c.name)} AS ${type})`])));
    return { sql: `SELECT ${list.join(', ')} FROM ${inputs[0].table}`, params: [] };
  },
};

export const castColumns: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
