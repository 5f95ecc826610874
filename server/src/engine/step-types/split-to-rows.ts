import type { StepType, StepTypeDescription } from './step-type';
import type { ParamValues } from '../params';
import { q, resolveParams, typeCategory, newColumnName } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { Column, SqlRunner, Vars } from '../runners/types';
import { POS, withPositions } from '../sql-steps/row-positions';
import { booleanParam, textParam } from '../sql-steps/param-values';
import { singleInput, dataColumn, appended } from '../sql-steps/output-columns';

const description: StepTypeDescription = {
  id: 'split_to_rows',
  name: 'Split into rows',
  description:
    'Split a text column at a separator and make one row per part, e.g. "red, green" becomes a row with "red" and a row with "green". The part replaces the text; a position column numbers the parts from 1. The other columns are repeated on each row.',
  category: 'transform',
  tags: ['split', 'explode', 'text', 'rows'],
  params: [
    { name: 'column', type: 'column', label: 'Text column', help: 'The text column to split.', required: true },
    {
      name: 'delimiter',
      type: 'string',
      label: 'Separator',
      help: 'The text between parts, taken literally (not a pattern), e.g. "," or " | ".',
      required: true,
      default: ',',
      max_length: 100,
    },
    { name: 'trim', type: 'boolean', label: 'Trim spaces', help: 'Remove spaces around each part.', required: false, default: true },
    {
      name: 'drop_empty',
      type: 'boolean',
      label: 'Drop empty parts',
      help: 'Leave out parts that are empty (after trimming); a row with no part left disappears.',
      required: false,
      default: true,
    },
    {
      name: 'position_column',
      type: 'string',
      label: 'Position column',
      help: 'Name of the new column numbering each part from 1.',
      required: true,
      default: 'position',
      max_length: 128,
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '拆分为多行',
      description:
        '按分隔符拆分文本列，每一部分成为一行，例如 "red, green" 变成 "red" 一行和 "green" 一行。拆出的部分替换原文本；位置列从 1 开始为各部分编号。其他列在每一行上重复。',
      params: {
        column: { label: '文本列', help: '要拆分的文本列。' },
        delimiter: { label: '分隔符', help: '各部分之间的文本，按字面匹配（不是模式），例如 "," 或 " | "。' },
        trim: { label: '去除空格', help: '去掉每一部分两端的空格。' },
        drop_empty: { label: '丢弃空部分', help: '不保留（去空格后）为空的部分；没有剩余部分的行会消失。' },
        position_column: { label: '位置列', help: '从 1 开始为各部分编号的新列的名称。' },
      },
      cost_note: '免费。',
    },
  },
};

function splitPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = singleInput(inputs);
  const params = resolveParams(description, stored, vars);
  const column = dataColumn(columns, params.column, ['column']);
  if (!['text', 'unknown'].includes(typeCategory(column.type)))
    throw paramProblem(['column'], 'server.steps.notText', { column: column.name, type: column.type, operation: 'split' });
  const delimiter = textParam(params, 'delimiter', 1, 100);
  const trim = booleanParam(params, 'trim');
  const dropEmpty = booleanParam(params, 'drop_empty');
  const position = newColumnName(params.position_column, ['position_column']);
  const split: Column = { name: column.name, type: 'VARCHAR' };
  const out = appended(
    columns.map((c) => (c === column ? split : c)),
    [{ column: { name: position, type: 'BIGINT' }, loc: ['position_column'] }],
  );
  return { columns, column, delimiter, trim, dropEmpty, position, out };
}

/**
 * One row per part of the text column split at the delimiter (plain text, not a pattern), the
 * part replacing the text where it stands, its position (from 1, counting kept parts) last. Parts
 * are trimmed and empty ones dropped when asked; a row with no part left disappears; NULL text
 * gives one row with NULL part and position. The first part keeps the record's `_id`, the others
 * get new ids from the writer.
 */
const runner: SqlRunner = {
  kind: 'sql',
  outputColumns: (inputs, params, vars) => splitPlan(inputs, params, vars).out,
  toSql(inputs, params, vars) {
    const { columns, column, delimiter, trim, dropEmpty, position } = splitPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const [part, at] = [q('__stepwise_part'), q('__stepwise_at')];
    const c = q(column.name);
    const parts = `CASE WHEN ${c} IS NULL THEN [NULL] ELSE string_split(CAST(${c} AS VARCHAR), $1) END`;
    const exploded = `SELECT *, unnest(${trim ? `list_transform(${parts}, x -> trim(x))` : parts}) AS ${part}, unnest(range(1, len(${parts}) + 1)) AS ${at} FROM ${withPositions(inputs[0].table)}`;
    const where = dropEmpty ? ` WHERE ${part} IS NULL OR ${part} <> ''` : '';
    const list = columns.map((k) => (k === column ? `${part} AS ${c}` : q(k.name)));
    const pos = `CASE WHEN ${part} IS NULL AND ${c} IS NULL THEN NULL ELSE row_number() OVER (PARTITION BY ${POS} ORDER BY ${at}) END`;
    return {
      sql: `SELECT ${[...list, `CAST(${pos} AS BIGINT) AS ${q(position)}`].join(', ')} FROM (${exploded})${where} ORDER BY ${POS}, ${at}`,
      params: [delimiter],
    };
  },
};

export const splitToRows: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
