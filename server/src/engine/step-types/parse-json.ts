import type { StepType, StepTypeDescription } from './step-type';
import type { ParamValues } from '../params';
import { q, resolveParams, typeCategory, newColumnName } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { Column, SqlRunner, Vars } from '../runners/types';
import { enumParam, objectList } from '../sql-steps/param-values';
import { singleInput, dataColumn, appended } from '../sql-steps/output-columns';
import type { Loc } from '../sql-steps/output-columns';

const description: StepTypeDescription = {
  id: 'parse_json',
  name: 'Read JSON fields',
  description:
    'Read a text column holding JSON and copy values at the paths you give into new columns of the type you choose, e.g. $.customer.name or $.items[0].id. A path that leads nowhere gives an empty value; text that is not JSON gives empty values or stops the step, as you choose.',
  category: 'transform',
  tags: ['json', 'parse', 'extract', 'fields'],
  params: [
    { name: 'column', type: 'column', label: 'JSON column', help: 'The text column holding JSON.', required: true },
    {
      name: 'paths',
      type: 'json',
      label: 'Fields',
      help: 'A JSON list of {"path", "as", "type"} (at most 100); path starts with $ and goes down with .key and [index], e.g. $.items[0].id; type is text (the default), integer, number, boolean or json.',
      required: true,
      fields: [
        { name: 'path', kind: 'text', label: 'Path', required: true },
        { name: 'as', kind: 'text', label: 'New column', required: true },
        { name: 'type', kind: 'enum', label: 'Type', options: ['text', 'integer', 'number', 'boolean', 'json'], required: false },
      ],
    },
    {
      name: 'on_invalid',
      type: 'enum',
      label: 'Invalid JSON or value',
      help: 'null: text that is not JSON, or a value that does not convert to the type, gives an empty value. fail: stop the step and say why.',
      required: true,
      default: 'null',
      options: ['null', 'fail'],
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '读取 JSON 字段',
      description:
        '读取存放 JSON 的文本列，把指定路径上的值复制到所选类型的新列中，例如 $.customer.name 或 $.items[0].id。路径不存在时得到空值；不是 JSON 的文本可以选择得到空值或让步骤停止。',
      params: {
        column: { label: 'JSON 列', help: '存放 JSON 的文本列。' },
        paths: {
          label: '字段',
          help: '由 {"path", "as", "type"} 组成的 JSON 列表（最多 100 项）；path 以 $ 开头，用 .key 和 [序号] 逐级向下，例如 $.items[0].id；type 可选 text（默认）、integer、number、boolean 或 json。',
          fields: { path: '路径', as: '新列名', type: '类型' },
        },
        on_invalid: { label: '无效 JSON 或值', help: 'null：不是 JSON 的文本，或无法转换为该类型的值，得到空值。fail：停止步骤并说明原因。' },
      },
      cost_note: '免费。',
    },
  },
};

const JSON_TYPES: Record<string, string> = { text: 'VARCHAR', integer: 'BIGINT', number: 'DOUBLE', boolean: 'BOOLEAN', json: 'JSON' };
/** `$`, then `.key` (letters, digits, `_`, or "quoted") and `[n]` steps; `*` wildcards are not allowed (one value per row). */
const JSON_PATH = /^\$(\.([A-Za-z_\u00C0-\uFFFF][\w\u00C0-\uFFFF]*|"[^"\\]{1,200}")|\[\d{1,6}\])*$/;

function jsonPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = singleInput(inputs);
  const params = resolveParams(description, stored, vars);
  const column = dataColumn(columns, params.column, ['column']);
  if (!['text', 'unknown'].includes(typeCategory(column.type)))
    throw paramProblem(['column'], 'server.steps.notText', { column: column.name, type: column.type, operation: 'JSON' });
  const onInvalid = enumParam(params, 'on_invalid', ['null', 'fail']);
  const paths = objectList(params, 'paths', 100).map((item, i) => {
    const path = item.path;
    if (typeof path !== 'string' || path.length > 500 || !JSON_PATH.test(path))
      throw paramProblem(['paths', i, 'path'], 'server.steps.jsonPath', { path: String(path ?? '').slice(0, 100) });
    const type = item.type ?? 'text';
    if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(JSON_TYPES, type))
      throw paramProblem(['paths', i, 'type'], 'server.steps.castType', { type: String(type), types: Object.keys(JSON_TYPES).join(', ') });
    return { path, column: { name: newColumnName(item.as, ['paths', i, 'as']), type: JSON_TYPES[type] }, loc: ['paths', i, 'as'] as Loc };
  });
  return { columns, column, onInvalid, paths, out: appended(columns, paths) };
}

/**
 * Each path's value in the text column's JSON to a new column of the asked type: NULL where the
 * path leads nowhere (or to JSON null) or the text is NULL. A value that does not convert to the
 * type, and text that is not JSON, become NULL (`null`) or fail the step with DuckDB's reason
 * (`fail`). Paths and their keys are bound parameters.
 */
const runner: SqlRunner = {
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => jsonPlan(inputs, params, vars).out,
  toSql(inputs, params, vars) {
    const { columns, column, onInvalid, paths } = jsonPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const c = `CAST(${q(column.name)} AS VARCHAR)`;
    const cast = onInvalid === 'null' ? 'TRY_CAST' : 'CAST';
    const list = paths.map(({ column: out }, i) => {
      const read = out.type === 'JSON' ? `json_extract(${c}, $${i + 1})` : `json_extract_string(${c}, $${i + 1})`;
      const value = `${cast}(${read} AS ${out.type})`;
      return `${onInvalid === 'null' ? `CASE WHEN json_valid(${c}) THEN ${value} END` : value} AS ${q(out.name)}`;
    });
    return { sql: `SELECT ${[...columns.map((k) => q(k.name)), ...list].join(', ')} FROM ${inputs[0].table}`, params: paths.map((p) => p.path) };
  },
};

export const parseJson: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
