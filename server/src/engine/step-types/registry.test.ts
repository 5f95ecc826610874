import fs from 'node:fs';
import path from 'node:path';
import en from '../../../../i18n/en.json';
import zh from '../../../../i18n/zh-CN.json';
import { getStepType, stepTypes } from '.';

describe('the step type modules', () => {
  it("each hold a description and a runner, found by the description's id", () => {
    for (const type of stepTypes) {
      expect([type.description.id, ['sql', 'per-record', 'source', 'sink'].includes(type.runner.kind)]).toEqual([type.description.id, true]);
      expect(getStepType(type.description.id)).toBe(type);
    }
  });

  it('register each step type once', () => {
    const ids = stepTypes.map((t) => t.description.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(getStepType('nope')).toBeUndefined();
  });

  it('runs code, HTTP requests and the AI steps per record', () => {
    expect(getStepType('code')?.runner).toMatchObject({ kind: 'per-record', output: 'replace' });
    expect(getStepType('http_request')?.runner).toMatchObject({ kind: 'per-record', output: 'append' });
    for (const id of ['ai_prompt', 'ai_classify', 'ai_extract', 'ai_summarize', 'ai_embed'])
      expect([id, getStepType(id)?.runner]).toEqual([id, expect.objectContaining({ kind: 'per-record', output: 'append' })]);
  });

  it('declare what the run engine and billing read, consistently with the served cost', () => {
    for (const { description, runner, cacheable, billing, outsideCalls } of stepTypes) {
      const id = description.id;
      // A price per run is charged per run; a price per record is charged per record (or per answer for AI).
      expect([id, billing === 'run']).toEqual([id, description.cost.per === 'run']);
      expect([id, billing === 'ai-tokens']).toEqual([id, outsideCalls === 'ai']);
      // Reusing an output is safe only for deterministic steps: every SQL step, never a sink or an outside call.
      if (runner.kind === 'sql') expect([id, cacheable]).toEqual([id, true]);
      if (runner.kind === 'sink' || outsideCalls !== 'none') expect([id, cacheable]).toEqual([id, false]);
    }
    expect(
      stepTypes
        .filter((t) => t.runner.kind !== 'sql' && t.cacheable)
        .map((t) => t.description.id)
        .sort(),
    ).toEqual(['code', 'import_csv', 'import_dataset', 'import_file', 'table_input']);
  });

  it('runs the set-based steps as SQL, the sources as sources and the sinks as sinks', () => {
    for (const id of [
      'filter',
      'select_columns',
      'rename_columns',
      'add_column',
      'sort',
      'limit',
      'deduplicate',
      'aggregate',
      'join',
      'union',
      'cast_columns',
      'fill_nulls',
      'sample',
      'pivot',
      'unpivot',
      'split_to_rows',
      'regex_extract',
      'parse_json',
      'date_parts',
      'reorder_columns',
    ]) {
      expect([id, getStepType(id)?.runner.kind]).toEqual([id, 'sql']);
    }
    for (const id of ['import_csv', 'import_file', 'import_folder', 'import_dataset', 'table_input', 'import_http_json'])
      expect([id, getStepType(id)?.runner.kind]).toEqual([id, 'source']);
    for (const id of ['export_csv', 'export_parquet', 'export_file', 'webhook']) expect([id, getStepType(id)?.runner.kind]).toEqual([id, 'sink']);
  });
});

describe("the step types' messages", () => {
  it('exist in English and Chinese, quoting placeholders with “” rather than ASCII apostrophes', () => {
    // Every folder the step types' code lives in: their modules and the helpers they share.
    const engine = path.join(__dirname, '..');
    const folders = ['step-types', 'runners', 'sql-steps', 'sources', 'sinks'].map((f) => path.join(engine, f));
    const sources = folders.flatMap((dir) =>
      fs
        .readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
        .map((f) => path.join(dir, f)),
    );
    const keys = new Set(sources.flatMap((f) => fs.readFileSync(f, 'utf8').match(/server\.(steps|params|expressions|http)\.[A-Za-z]+/g) ?? []));
    expect(keys.size).toBeGreaterThan(15);
    for (const key of keys) {
      for (const catalog of [en, zh] as Record<string, string>[]) {
        expect([key, typeof catalog[key]]).toEqual([key, 'string']);
        if (key.startsWith('server.steps.')) expect([key, /'\{/.test(catalog[key]) || /\}'/.test(catalog[key])]).toEqual([key, false]);
      }
    }
  });
});
