import fs from 'node:fs';
import path from 'node:path';
import { translate } from '../i18n/messages';
import { logLineOut, logText, storedLogLine } from './run-log';

const engineDir = __dirname;
const catalog = (language: string) =>
  JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../i18n', `${language}.json`), 'utf8')) as Record<string, string>;
const en = catalog('en');
const zh = catalog('zh-CN');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** Every `server.runLog.*` key the engine's code names, with the file naming it. */
const used = sourceFiles(engineDir).flatMap((file) =>
  [...fs.readFileSync(file, 'utf8').matchAll(/['"`](server\.runLog\.[\w.]+)['"`]/g)].map((m) => ({ key: m[1], file: path.relative(engineDir, file) })),
);
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('run log lines', () => {
  it('name only keys both catalogs hold, with the same placeholders', () => {
    expect(used.length).toBeGreaterThan(30);
    for (const { key, file } of used) {
      expect([file, key, key in en, key in zh]).toEqual([file, key, true, true]);
      expect([key, placeholders(zh[key])]).toEqual([key, placeholders(en[key])]);
    }
  });

  it('leave no catalog text unused', () => {
    const names = new Set(used.map((u) => u.key));
    expect(Object.keys(en).filter((key) => key.startsWith('server.runLog.') && !names.has(key))).toEqual([]);
  });

  it('are stored as key and values with their English text, and read in the reader’s language', () => {
    const line = storedLogLine('2026-11-20T10:00:00.000Z', 'server.runLog.running', {
      type: 'ai_prompt',
      inputs: [{ key: 'server.runLog.records', values: { count: 3 } }, { key: 'server.runLog.deferredInput' }],
    });
    expect(line.text).toBe('Running ai_prompt on 3 record(s) and a deferred input');
    const stored = JSON.parse(JSON.stringify(line)) as unknown;
    const zhLine = logLineOut(stored, (key, values) => translate('zh-CN', key, values));
    expect(zhLine.at).toBe('2026-11-20T10:00:00.000Z');
    expect(zhLine.text).toBe(
      translate('zh-CN', 'server.runLog.running', {
        type: 'ai_prompt',
        inputs: translate('zh-CN', 'server.runLog.and', {
          first: translate('zh-CN', 'server.runLog.records', { count: 3 }),
          second: translate('zh-CN', 'server.runLog.deferredInput'),
        }),
      }),
    );
    expect(zhLine.text).not.toMatch(/Running|record/);
  });

  it('keep the English of the lines tests and people know', () => {
    expect(logText('en', 'server.runLog.done', { count: 5 })).toBe('Done: 5 record(s)');
    expect(logText('en', 'server.runLog.doneWithFailures', { count: 5, failed: 2 })).toBe('Done: 5 record(s), 2 failed');
    expect(logText('en', 'server.runLog.resuming', { batches: 2, records: 40 })).toBe('Resuming after 2 finished batch(es), 40 record(s)');
    expect(logText('en', 'server.runLog.running', { type: 'filter', inputs: { key: 'server.runLog.noInput' } })).toBe('Running filter on no input');
  });

  it('read lines stored before 0069 (time and English text in one string) with their time apart', () => {
    const t = (key: string, values?: Record<string, string | number>) => translate('zh-CN', key, values);
    expect(logLineOut('2026-11-20T10:00:00.000Z Done: 3 record(s)', t)).toEqual({ at: '2026-11-20T10:00:00.000Z', text: 'Done: 3 record(s)' });
    expect(logLineOut('no time here', t)).toEqual({ at: null, text: 'no time here' });
  });

  it('fall back to the stored English for a key the catalogs no longer hold', () => {
    const t = (key: string, values?: Record<string, string | number>) => translate('zh-CN', key, values);
    expect(logLineOut({ at: '2026-11-20T10:00:00.000Z', key: 'server.runLog.gone', text: 'An old line' }, t)).toEqual({
      at: '2026-11-20T10:00:00.000Z',
      text: 'An old line',
    });
  });

  it('say a failed step’s error as people read it, not its key', () => {
    const error = { key: 'server.steps.runFailed' as const, values: { reason: 'Conversion Error: bad date' } };
    const line = storedLogLine('2026-11-20T10:00:00.000Z', 'server.runLog.failed', { reason: error });
    expect(line.text).toBe(`Failed: ${translate('en', error.key, error.values)}`);
    const zhLine = logLineOut(JSON.parse(JSON.stringify(line)) as unknown, (key, values) => translate('zh-CN', key, values));
    expect(zhLine.text).toBe(translate('zh-CN', 'server.runLog.failed', { reason: translate('zh-CN', error.key, error.values) }));
    expect(zhLine.text).not.toContain('server.');
  });

  it('cut long values so one line stays small', () => {
    const line = storedLogLine('2026-11-20T10:00:00.000Z', 'server.runLog.failed', { reason: 'x'.repeat(5000) });
    expect(String(line.values?.reason).length).toBe(500);
  });
});
