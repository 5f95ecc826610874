import fs from 'node:fs';
import path from 'node:path';
import en from '../../../../i18n/en.json';
import zh from '../../../../i18n/zh-CN.json';
import { stepTypes } from '../step-types';
import { getRunner, pendingRunners, runners } from '.';

describe('the runner registry', () => {
  it('has a runner or a pending entry (with the issue that brings it) for every catalogue step type, never both', () => {
    for (const type of stepTypes) {
      const runner = getRunner(type.id);
      const pending = pendingRunners[type.id];
      expect([type.id, Boolean(runner) !== Boolean(pending)]).toEqual([type.id, true]);
      if (runner) expect(runner.stepType).toBe(type.id);
      if (pending) expect(pending.by).toMatch(/issue \d+\/\d+/);
    }
  });

  it('registers nothing the catalogue does not describe', () => {
    const ids = new Set(stepTypes.map((t) => t.id));
    for (const id of [...runners.keys(), ...Object.keys(pendingRunners)]) expect([id, ids.has(id)]).toEqual([id, true]);
  });

  it('runs code, HTTP requests and the AI steps per record', () => {
    expect(getRunner('code')).toMatchObject({ kind: 'per-record', output: 'replace' });
    expect(getRunner('http_request')).toMatchObject({ kind: 'per-record', output: 'append' });
    for (const id of ['ai_prompt', 'ai_classify', 'ai_extract', 'ai_summarize', 'ai_embed'])
      expect([id, getRunner(id)]).toEqual([id, expect.objectContaining({ kind: 'per-record', output: 'append' })]);
  });

  it('has no step type left waiting for its runner', () => {
    expect(pendingRunners).toEqual({});
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
      expect([id, getRunner(id)?.kind]).toEqual([id, 'sql']);
    }
    for (const id of ['import_csv', 'import_file', 'import_folder', 'import_dataset', 'table_input', 'import_http_json'])
      expect([id, getRunner(id)?.kind]).toEqual([id, 'source']);
    for (const id of ['export_csv', 'export_parquet', 'export_file', 'webhook']) expect([id, getRunner(id)?.kind]).toEqual([id, 'sink']);
  });
});

describe("the runners' messages", () => {
  it('exist in English and Chinese, quoting placeholders with “” rather than ASCII apostrophes', () => {
    const sources = fs.readdirSync(__dirname, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const keys = new Set(
      sources.flatMap((f) => fs.readFileSync(path.join(__dirname, f), 'utf8').match(/server\.(steps|params|expressions|http)\.[A-Za-z]+/g) ?? []),
    );
    expect(keys.size).toBeGreaterThan(15);
    for (const key of keys) {
      for (const catalog of [en, zh] as Record<string, string>[]) {
        expect([key, typeof catalog[key]]).toEqual([key, 'string']);
        if (key.startsWith('server.steps.')) expect([key, /'\{/.test(catalog[key]) || /\}'/.test(catalog[key])]).toEqual([key, false]);
      }
    }
  });
});
