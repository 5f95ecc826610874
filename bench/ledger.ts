import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../server/src/db/database';
import { migrateToLatest } from '../server/src/db/migrate';
import { Ledger, type LedgerEntry } from '../server/src/modules/usage/ledger';

/**
 * The credit ledger (`BENCH_LEDGER=1`, or `only`): a balance is the SUM of a user's rows, read once
 * per finished batch of a paid step and before each run, so its cost grows with the rows a user has.
 * Measures that read at 1k, 10k and 100k rows, and how fast batches' usage rows are appended, on
 * SQLite (a fresh file) in this process.
 */
export async function benchLedger(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-ledger-'));
  const handle = openDatabase({ databaseUrl: null, sqliteFile: path.join(dir, 'stepwise.db') });
  try {
    await migrateToLatest(handle.db, handle.dialect);
    const now = new Date().toISOString();
    const userId = randomUUID();
    await handle.db
      .insertInto('users')
      .values({
        id: userId,
        email: 'ledger@bench.local',
        name: 'Ledger',
        password_hash: 'x',
        role: 'user',
        locale: 'en',
        theme: 'system',
        ai_base_url: null,
        ai_model: null,
        ai_provider: null,
        ai_api_key_sealed: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const ledger = new Ledger(handle.db);
    const entry = (n: number): LedgerEntry => ({
      userId,
      kind: 'usage',
      creditsMicro: -1000,
      idempotencyKey: `bench:${n}`,
      unit: 'record',
      quantity: 100,
      unitPriceMicro: 10,
    });
    const lines = ['Ledger (SQLite, one user)', '', '| rows | balance (SUM) | appends |', '|---:|---:|---:|'];
    let rows = 0;
    for (const size of [1_000, 10_000, 100_000]) {
      const started = process.hrtime.bigint();
      const added = size - rows;
      // As the run engine writes them: one batch's usage at a time.
      for (; rows < size; rows++) await ledger.append([entry(rows)]);
      const appendMs = Number(process.hrtime.bigint() - started) / 1e6;
      const reads = 50;
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < reads; i++) await ledger.balanceMicro(userId);
      const readMs = Number(process.hrtime.bigint() - t0) / 1e6 / reads;
      lines.push(`| ${size.toLocaleString('en')} | ${readMs.toFixed(2)} ms | ${Math.round((added / appendMs) * 1000).toLocaleString('en')}/s |`);
    }
    return lines.join('\n');
  } finally {
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
