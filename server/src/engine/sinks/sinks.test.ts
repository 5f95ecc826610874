import fs from 'node:fs';

import { translate } from '../../i18n/messages';
import { ValidationFailed } from '../../lib/errors';

import type { ParamValues } from '../params';

import { type Vars } from '../runners';

import { columns, failure, people, run, scratchDir, sink, useSinkTestbed } from '../../test/engine/sink-testbed';

// The sinks on real DuckDB over Parquet snapshots in a local storage folder, and the webhook
// against a real HTTP server on 127.0.0.1.

useSinkTestbed();

describe('the sinks pass their input on', () => {
  it("answer the input's columns unchanged, `_id` included", () => {
    const input = [{ name: '_id', type: 'VARCHAR' }, ...columns];
    for (const [id, params] of [
      ['export_csv', {}],
      ['export_parquet', {}],
      ['export_file', { format: 'xlsx' }],
      ['webhook', { url: 'https://hooks.example.com/x' }],
    ] as const) {
      expect([id, sink(id).outputColumns([input], params, {})]).toEqual([id, input]);
    }
  });
});

describe('file names', () => {
  it('render {{var.x}} and are saved under that name in the chosen folder', async () => {
    const out = await run('export_csv', { file_name: 'people-{{var.month}} ({{ var.n }}).csv', folder: 'f-1' }, people, { month: '2024-03', n: 7 });
    expect(out.saved.map((s) => [s.name, s.folderId])).toEqual([['people-2024-03 (7).csv', 'f-1']]);
    expect(out.result.files).toEqual([out.saved[0].file]);
    // The scratch file was moved into the files, nothing is left behind.
    expect(fs.readdirSync(scratchDir)).toEqual([]);
  });

  it('default per step and format', async () => {
    expect((await run('export_csv', {})).saved[0].name).toBe('export.csv');
    expect((await run('export_parquet', {})).saved[0].name).toBe('export.parquet');
    expect((await run('export_file', { format: 'jsonl' })).saved[0].name).toBe('export.jsonl');
    expect((await run('export_file', {})).saved[0].name).toBe('export.xlsx');
  });

  it('refuse slashes, control characters, over-long names and unknown variables at ["file_name"]', async () => {
    const cases: [ParamValues, Vars, string][] = [
      [{ file_name: '../etc/passwd' }, {}, '“../etc/passwd” cannot be a file name: give 1 to 255 characters, without “/”, “\\” or control characters.'],
      [
        { file_name: '{{var.sub}}.csv' },
        { sub: 'a\\b' },
        '“a\\b.csv” cannot be a file name: give 1 to 255 characters, without “/”, “\\” or control characters.',
      ],
      [{ file_name: 'a\tb.csv' }, {}, '“a\tb.csv” cannot be a file name: give 1 to 255 characters, without “/”, “\\” or control characters.'],
      [
        { file_name: `{{var.long}}.csv` },
        { long: 'x'.repeat(252) },
        `“${'x'.repeat(64)}…” cannot be a file name: give 1 to 255 characters, without “/”, “\\” or control characters.`,
      ],
      [{ file_name: 'report-{{var.missing}}.csv' }, {}, '“{{var.missing}}” has no value here: only workflow variables can stand for this setting.'],
    ];
    for (const [params, vars, message] of cases) {
      const err = await failure(run('export_csv', params, people, vars));
      expect(err).toBeInstanceOf(ValidationFailed);
      expect((err as ValidationFailed).problems.map((p) => [p.loc, translate('en', p.key, p.values)])).toEqual([[['file_name'], message]]);
      // outputColumns checks the same before a run, when it knows the variables.
      expect(() => sink('export_csv').outputColumns([people.columns], params, vars)).toThrow(ValidationFailed);
    }
  });
});
