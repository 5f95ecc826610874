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

  it('runs the set-based steps as SQL', () => {
    for (const id of ['filter', 'select_columns', 'rename_columns', 'add_column', 'sort', 'limit', 'deduplicate', 'aggregate', 'join', 'union']) {
      expect([id, getRunner(id)?.kind]).toEqual([id, 'sql']);
    }
    expect(pendingRunners.code.kind).toBe('per-record');
    expect(pendingRunners.import_csv.kind).toBe('source');
    expect(pendingRunners.export_csv.kind).toBe('sink');
  });
});

describe('the runners\' messages', () => {
  it('exist in English and Chinese, quoting placeholders with “” rather than ASCII apostrophes', () => {
    const sources = fs.readdirSync(__dirname).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const keys = new Set(sources.flatMap((f) => fs.readFileSync(path.join(__dirname, f), 'utf8').match(/server\.(steps|params|expressions)\.[A-Za-z]+/g) ?? []));
    expect(keys.size).toBeGreaterThan(15);
    for (const key of keys) {
      for (const catalog of [en, zh] as Record<string, string>[]) {
        expect([key, typeof catalog[key]]).toEqual([key, 'string']);
        if (key.startsWith('server.steps.')) expect([key, /'\{/.test(catalog[key]) || /\}'/.test(catalog[key])]).toEqual([key, false]);
      }
    }
  });
});
