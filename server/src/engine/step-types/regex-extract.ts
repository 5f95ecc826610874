import type { StepType, StepTypeDescription } from './step-type';
import type { ParamValues } from '../params';
import { q, resolveParams, typeCategory, newColumnName } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { Column, SqlRunner, Vars } from '../runners/types';
import { enumParam, textParam, objectList } from '../sql-steps/param-values';
import { singleInput, dataColumn, appended } from '../sql-steps/output-columns';
import type { Loc } from '../sql-steps/output-columns';

const description: StepTypeDescription = {
  id: 'regex_extract',
  name: 'Extract with a pattern',
  description:
    'Read parts of a text column with a regular expression (RE2 syntax): put what the pattern\'s groups capture into new columns, e.g. the year and month of "2024-03 report", or add a true/false column saying whether the text contains a match.',
  category: 'transform',
  tags: ['regex', 'pattern', 'extract', 'text'],
  params: [
    { name: 'column', type: 'column', label: 'Text column', help: 'The text column to read.', required: true },
    {
      name: 'pattern',
      type: 'string',
      label: 'Pattern',
      help: 'A regular expression in RE2 syntax (at most 1000 characters), e.g. (\\d{4})-(\\d{2}). It may match anywhere in the text.',
      required: true,
      max_length: 1000,
    },
    {
      name: 'mode',
      type: 'enum',
      label: 'Result',
      help: 'extract: the listed groups to new text columns (empty when the text does not match). matches: one true/false column.',
      required: true,
      default: 'extract',
      options: ['extract', 'matches'],
    },
    {
      name: 'groups',
      type: 'json',
      label: 'Groups',
      help: 'For extract: a JSON list of {"group", "as"} (at most 10); group is 0 for the whole match, 1 to 9 for the parentheses in order, or the name of a named group (?P<name>…); "as" names the new column. E.g. [{"group": 1, "as": "year"}, {"group": "month", "as": "month"}].',
      required: false,
      default: [{ group: 0, as: 'match' }],
    },
    {
      name: 'new_column',
      type: 'string',
      label: 'Match column',
      help: 'For matches: name of the new true/false column.',
      required: false,
      default: 'matches',
      max_length: 128,
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '按模式提取',
      description:
        '用正则表达式（RE2 语法）读取文本列的一部分：把模式中各分组捕获的内容放入新列，例如从 "2024-03 report" 中取出年和月；或新增一个真/假列，表示文本是否包含匹配。',
      params: {
        column: { label: '文本列', help: '要读取的文本列。' },
        pattern: { label: '模式', help: 'RE2 语法的正则表达式（最多 1000 个字符），例如 (\\d{4})-(\\d{2})。可以匹配文本中的任意位置。' },
        mode: { label: '结果', help: 'extract：把列出的分组写入新的文本列（文本不匹配时为空）。matches：一个真/假列。' },
        groups: {
          label: '分组',
          help: '用于 extract：由 {"group", "as"} 组成的 JSON 列表（最多 10 项）；group 为 0 表示整个匹配，1 到 9 表示按顺序的括号分组，也可以是命名分组 (?P<name>…) 的名称；"as" 是新列的名称。例如 [{"group": 1, "as": "year"}, {"group": "month", "as": "month"}]。',
        },
        new_column: { label: '匹配列', help: '用于 matches：新的真/假列的名称。' },
      },
      cost_note: '免费。',
    },
  },
};

const MAX_PATTERN = 1000;

/**
 * The named groups of an RE2 pattern, `(?P<name>…)` or `(?<name>…)`, by name → group number:
 * capturing groups are counted as RE2 does, left to right by their opening parenthesis, skipping
 * escaped characters, character classes and non-capturing `(?…)` groups.
 */
export function namedGroups(pattern: string): Map<string, number> {
  const names = new Map<string, number>();
  let count = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') i++;
    else if (inClass) inClass = ch !== ']';
    else if (ch === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++;
    } else if (ch === '(') {
      const name = /^\?P?<([A-Za-z_]\w*)>/.exec(pattern.slice(i + 1));
      if (pattern[i + 1] !== '?' || name) count++;
      if (name && !names.has(name[1])) names.set(name[1], count);
    }
  }
  return names;
}

function regexPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = singleInput(inputs);
  const params = resolveParams(description, stored, vars);
  const column = dataColumn(columns, params.column, ['column']);
  if (!['text', 'unknown'].includes(typeCategory(column.type)))
    throw paramProblem(['column'], 'server.steps.notText', { column: column.name, type: column.type, operation: 'regex' });
  const pattern = textParam(params, 'pattern', 1, MAX_PATTERN);
  const mode = enumParam(params, 'mode', ['extract', 'matches']);
  let added: { column: Column; group: number; loc: Loc }[];
  if (mode === 'matches') {
    added = [{ column: { name: newColumnName(params.new_column, ['new_column']), type: 'BOOLEAN' }, group: -1, loc: ['new_column'] }];
  } else {
    const named = namedGroups(pattern);
    added = objectList(params, 'groups', 10).map((item, i) => {
      let group = item.group;
      if (typeof group === 'string') {
        if (!named.has(group))
          throw paramProblem(['groups', i, 'group'], 'server.steps.regexGroupName', {
            name: group.slice(0, 100),
            names: [...named.keys()].join(', ') || '(none)',
          });
        group = named.get(group)!;
      }
      if (typeof group !== 'number' || !Number.isInteger(group) || group < 0 || group > 9)
        throw paramProblem(['groups', i, 'group'], 'server.steps.regexGroup');
      return { column: { name: newColumnName(item.as, ['groups', i, 'as']), type: 'VARCHAR' }, group, loc: ['groups', i, 'as'] };
    });
  }
  return { columns, column, pattern, added, out: appended(columns, added) };
}

/**
 * Reads a text column with a regular expression (RE2, as DuckDB has it; at most 1000 characters,
 * bound as a parameter): each listed group (0 = the whole match, 1–9 the parentheses in order) to
 * a new text column, NULL when the text does not match (a group that took part in no match is
 * empty text); or one true/false column saying whether the text contains a match (NULL for NULL
 * text). A pattern that does not compile is refused at `pattern` with RE2's reason (paramFailure).
 */
const runner: SqlRunner = {
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => regexPlan(inputs, params, vars).out,
  toSql(inputs, params, vars) {
    const { columns, column, pattern, added } = regexPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const c = `CAST(${q(column.name)} AS VARCHAR)`;
    const list = added.map(({ column: out, group }) =>
      group < 0
        ? `regexp_matches(${c}, $1) AS ${q(out.name)}`
        : `CASE WHEN regexp_matches(${c}, $1) THEN regexp_extract(${c}, $1, ${group}) END AS ${q(out.name)}`,
    );
    return { sql: `SELECT ${[...columns.map((k) => q(k.name)), ...list].join(', ')} FROM ${inputs[0].table}`, params: [pattern] };
  },
  // Reading text with a pattern fails only when RE2 cannot compile it ("Invalid Input Error: missing ): (").
  paramFailure: (reason) =>
    reason.startsWith('Invalid Input Error: ')
      ? paramProblem(['pattern'], 'server.steps.badPattern', { reason: reason.slice('Invalid Input Error: '.length) })
      : null,
};

export const regexExtract: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
