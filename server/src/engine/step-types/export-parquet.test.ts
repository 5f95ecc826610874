import fs from 'node:fs';
import path from 'node:path';
import { columns, datasets, run, scratchDir, useSinkTestbed } from '../../test/engine/sink-testbed';

// The sinks on real DuckDB over Parquet snapshots in a local storage folder, and the webhook
// against a real HTTP server on 127.0.0.1.

useSinkTestbed();

describe('export_parquet', () => {
  it('writes a Parquet file DuckDB reads back with the same types and values, ZSTD by default', async () => {
    const out = await run('export_parquet', {});
    const file = out.saved[0].path;
    // Read back through the datasets' own DuckDB: the saved file is copied under its scratch folder.
    const copy = path.join(scratchDir, 'readback.parquet');
    fs.copyFileSync(file, copy);
    try {
      const { back, codecs, types } = await datasets.pool.use(async (c) => ({
        back: (await c.runAndReadAll(`SELECT * FROM read_parquet('${copy}')`)).getRowObjectsJson(),
        codecs: (await c.runAndReadAll(`SELECT DISTINCT compression FROM parquet_metadata('${copy}')`)).getRows().map((r) => r[0]),
        types: (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${copy}')`)).getRows().map((r) => [r[0], r[1]]),
      }));
      expect(types).toEqual(columns.map((c) => [c.name, c.type]));
      expect(codecs).toEqual(['ZSTD']);
      expect(back).toEqual([
        { name: 'Ada', note: 'plain', amount: 9.5, count: '3', day: '2024-01-15', at: '2024-01-15 12:34:56' },
        { name: '李雷', note: 'says "hi", then; leaves', amount: -1.25, count: null, day: null, at: null },
        { name: 'Ärger', note: 'two\nlines', amount: null, count: '9007199254740991', day: '1999-12-31', at: '2000-01-01 00:00:00' },
        { name: "O'Brien", note: '', amount: 0, count: '0', day: '2024-02-29', at: '2024-02-29 23:59:59' },
      ]);
    } finally {
      fs.rmSync(copy, { force: true });
    }
  });
});
