import fs from 'node:fs';
import path from 'node:path';
import en from '../../../../i18n/en.json';
import { stepCategories, stepTypes, type ParamSpec, type StepCategory, type StepType } from '../../engine/step-types';

/**
 * docs/steps.md as the registry would write it: the hand-written header, then per category its
 * name and notes, and per step type what its module declares (name, description, params, inputs,
 * how it runs, cost) followed by its hand-written notes and examples. What is declared comes from
 * the module, so it cannot drift; the notes are prose about it (`notes/<category>.md`, keyed by
 * category or step type id; a step type without notes gets none).
 */

const HERE = __dirname;
const NOTE_MARK = /^<!-- notes: (category|step) ([a-z_]+) -->$/;
/** A notes file's own first line, saying what it is: not part of any note. */
const FILE_COMMENT = /^<!-- Hand-written notes .* -->$/;

/** The hand-written notes by key (`category source`, `step sort`). */
export function readNotes(text: string): Map<string, string> {
  const notes = new Map<string, string>();
  let key: string | null = null;
  let lines: string[] = [];
  const flush = () => {
    if (key) notes.set(key, lines.join('\n').trim());
  };
  for (const line of text.split('\n')) {
    const mark = NOTE_MARK.exec(line);
    if (mark) {
      flush();
      key = `${mark[1]} ${mark[2]}`;
      lines = [];
    } else if (key && !FILE_COMMENT.test(line)) lines.push(line);
  }
  flush();
  return notes;
}

const cell = (text: string) => text.replaceAll('|', '\\|');
const code = (value: unknown) => `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;

function paramKind(p: ParamSpec): string {
  const parts: string[] = [p.type];
  if (p.options) parts.push(`one of ${p.options.map(code).join(', ')}`);
  if (p.integer) parts.push('whole');
  if (p.min !== undefined && p.max !== undefined) parts.push(`${p.min.toLocaleString('en-US')}–${p.max.toLocaleString('en-US')}`);
  else if (p.min !== undefined) parts.push(`≥ ${p.min.toLocaleString('en-US')}`);
  else if (p.max !== undefined) parts.push(`≤ ${p.max.toLocaleString('en-US')}`);
  if (p.max_length !== undefined) parts.push(`≤ ${p.max_length.toLocaleString('en-US')} characters`);
  if (p.input_index !== undefined) parts.push(`of input ${p.input_index + 1}`);
  if (p.same_length_as) parts.push(`as many as ${code(p.same_length_as)}`);
  if (p.accept) parts.push(p.accept.join(' '));
  if (p.required) parts.push('required');
  return parts.join(', ');
}

function paramsTable(params: ParamSpec[]): string {
  if (!params.length) return 'No params.';
  const rows = params.map(
    (p) => `| ${code(p.name)} | ${cell(paramKind(p))} | ${cell(`${p.label}: ${p.help}`)} | ${p.default === undefined ? '—' : cell(code(p.default))} |`,
  );
  return ['| param | kind | meaning | default |', '|---|---|---|---|', ...rows].join('\n');
}

const KIND_TEXT: Record<StepType['runner']['kind'], string> = {
  sql: 'one SQL query in DuckDB',
  'per-record': 'per record, in checkpointed batches',
  source: 'a source: reads from outside the workflow',
  sink: 'a sink: sends its input somewhere and passes it on',
};
const BILLING_TEXT: Record<StepType['billing'], string> = {
  run: 'once per run',
  records: 'per record',
  'ai-tokens': "per record the model answered, plus the model's tokens",
};

function facts(type: StepType): string {
  const { inputs, cost } = type.description;
  const inputText = inputs.max === null ? `${inputs.min} or more` : inputs.min === inputs.max ? String(inputs.min) : `${inputs.min}–${inputs.max}`;
  return [
    `- Inputs: ${inputText}. Runs as ${KIND_TEXT[type.runner.kind]}.`,
    `- ${type.cacheable ? 'An equal earlier run (same params, variables and inputs) is reused.' : 'Runs every time (never reused from an earlier run).'}${type.outsideCalls === 'none' ? '' : ` Calls outside: ${type.outsideCalls === 'ai' ? 'an AI model provider' : 'HTTP'}.`}`,
    `- Cost: ${cost.credits} credit(s) per ${cost.per}, charged ${BILLING_TEXT[type.billing]}. ${cost.note}`,
  ].join('\n');
}

function stepSection(type: StepType, notes: Map<string, string>): string {
  const { description: d } = type;
  const note = notes.get(`step ${d.id}`);
  return [`### ${d.id} — ${d.name}`, d.description, paramsTable(d.params), facts(type), ...(note ? [note] : [])].join('\n\n');
}

const categoryName = (category: StepCategory) => (en as Record<string, string>)[`server.stepInfos.category.${category}.name`] ?? category;

/** Every notes file, one after the other (a key is unique across them). */
export function notesText(): string {
  const dir = path.join(HERE, 'notes');
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => fs.readFileSync(path.join(dir, name), 'utf8'))
    .join('\n');
}

/** The whole of docs/steps.md. */
export function renderStepsDoc(): string {
  const header = fs.readFileSync(path.join(HERE, 'header.md'), 'utf8').replace('{{count}}', String(stepTypes.length));
  const notes = readNotes(notesText());
  const sections = stepCategories.map((category) => {
    const types = stepTypes.filter((t) => t.description.category === category);
    const intro = notes.get(`category ${category}`);
    return [`## ${categoryName(category)}`, ...(intro ? [intro] : []), ...types.map((t) => stepSection(t, notes))].join('\n\n');
  });
  return `${[header.trimEnd(), ...sections].join('\n\n---\n\n')}\n`;
}
