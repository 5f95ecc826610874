import { TestQuickJSWASMModule } from 'quickjs-emscripten';
import en from '../../../../i18n/en.json';
import zhCN from '../../../../i18n/zh-CN.json';
import { getStepDescription } from '../step-types';
import { CodeSandbox, defaultSandboxLimits, SandboxError, type CodeMode, type JsonRecord, type SandboxErrorCode, type SandboxLimits } from './index';
import { newQuickJS } from './quickjs';

const run = (code: string, records: JsonRecord[] = [{ a: 1 }], limits: Partial<SandboxLimits> = {}, vars = {}) =>
  new CodeSandbox(code, 'per_record', limits).runBatch(records, { vars });

/** The SandboxError a batch fails with (the test fails if it succeeds or throws anything else). */
async function failure(promise: Promise<unknown>): Promise<SandboxError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof SandboxError) return err;
    throw err;
  }
  throw new Error('the batch succeeded');
}

describe('CodeSandbox: the per-record contract', () => {
  it('transforms each record and says which input each result came from', async () => {
    const result = await run('return { ...record, double: record.a * 2 };', [{ a: 1 }, { a: 5 }]);
    expect(result.records).toEqual([
      { a: 1, double: 2 },
      { a: 5, double: 10 },
    ]);
    expect(result.sources).toEqual([0, 1]);
  });

  it('drops a record for null or undefined, emits several for an array', async () => {
    const result = await run(
      'if (record.a === 2) return null; if (record.a === 3) return; if (record.a === 4) return [{ n: 1 }, null, { n: 2 }]; return record;',
      [{ a: 1 }, { a: 2 }, { a: 3 }, { a: 4 }],
    );
    expect(result.records).toEqual([{ a: 1 }, { n: 1 }, { n: 2 }]);
    expect(result.sources).toEqual([0, 3, 3]);
  });

  it('passes the variables, frozen, so one record cannot change them for the next', async () => {
    const result = await run(
      '"use strict"; let changed = true; try { vars.rate = 0; } catch (e) { changed = false; } return { total: record.a * vars.rate, changed };',
      [{ a: 2 }, { a: 3 }],
      {},
      { rate: 10 },
    );
    expect(result.records).toEqual([
      { total: 20, changed: false },
      { total: 30, changed: false },
    ]);
  });

  it('leaves out undefined properties and writes dates as ISO text, as JSON does', async () => {
    const result = await run('return { gone: undefined, at: new Date(Date.UTC(2026, 0, 2)) };');
    expect(result.records).toEqual([{ at: '2026-01-02T00:00:00.000Z' }]);
  });

  it('runs a per-batch function once over all the records', async () => {
    const sandbox = new CodeSandbox('const total = records.reduce((s, r) => s + r.a, 0); return records.map((r) => ({ share: r.a / total }));', 'per_batch');
    const result = await sandbox.runBatch([{ a: 1 }, { a: 3 }]);
    expect(result.records).toEqual([{ share: 0.25 }, { share: 0.75 }]);
    expect(result.sources).toBeNull();
  });

  it('refuses a per-batch result that is not an array', async () => {
    const error = await failure(new CodeSandbox('return records[0];', 'per_batch').runBatch([{ a: 1 }]));
    expect(error.code).toBe('bad_return');
    expect(error.key).toBe('server.sandbox.badReturn');
  });

  it('refuses a result that is not a record, naming the record', async () => {
    const error = await failure(run('return record.a === 2 ? 42 : record;', [{ a: 1 }, { a: 2 }]));
    expect(error).toMatchObject({ code: 'bad_return', recordIndex: 1, values: { got: 'number' } });
  });

  it('refuses what JSON cannot carry, naming the record and the key', async () => {
    for (const [code, what] of [
      ['return { f() {} };', 'function'],
      ['return { n: 0 / 0 };', 'NaN'],
      ['return { big: 10n };', 'bigint'],
      ['const o = {}; o.self = o; return o;', 'circular'],
    ]) {
      const error = await failure(run(`if (record.a === 1) return record; ${code}`, [{ a: 1 }, { a: 2 }], {}));
      expect(error).toMatchObject({ code: 'not_json', recordIndex: 1, values: { what } });
    }
  });

  it('counts record positions from the batch’s first record', async () => {
    const sandbox = new CodeSandbox('if (record.a === 2) throw new Error("bad a"); return record;');
    const error = await failure(sandbox.runBatch([{ a: 1 }, { a: 2 }], { firstRecordIndex: 1000 }));
    expect(error.recordIndex).toBe(1001);
  });
});

describe('CodeSandbox: console', () => {
  it('captures console lines with their level and record', async () => {
    const result = await run('console.log("seen", record, [1, 2]); console.warn(record.a); return record;', [{ a: 1 }, { a: 2 }]);
    expect(result.logs).toEqual([
      { level: 'log', text: 'seen {"a":1} [1,2]', record: 0 },
      { level: 'warn', text: '1', record: 0 },
      { level: 'log', text: 'seen {"a":2} [1,2]', record: 1 },
      { level: 'warn', text: '2', record: 1 },
    ]);
  });

  it('keeps a bounded number of bounded lines and counts the rest', async () => {
    const result = await run('for (let i = 0; i < 150; i++) console.log("x".repeat(5000)); return record;');
    expect(result.logs).toHaveLength(100);
    expect(result.logs[0].text).toBe(`${'x'.repeat(1000)}…`);
    expect(result.droppedLogLines).toBe(50);
  });
});

describe('CodeSandbox: nothing beyond the language', () => {
  it('has no require, process, fetch, timers, modules or host objects', async () => {
    const names = [
      'require',
      'process',
      'fetch',
      'setTimeout',
      'setInterval',
      'module',
      'exports',
      '__dirname',
      'Buffer',
      'std',
      'os',
      'XMLHttpRequest',
      'WebAssembly',
      'importScripts',
    ];
    const result = await run(`return { ${names.map((n) => `${n}: typeof ${n}`).join(', ')} };`);
    expect(result.records[0]).toEqual(Object.fromEntries(names.map((n) => [n, 'undefined'])));
  });

  it('gives nothing through the Function constructor, globalThis or import()', async () => {
    const result = await run(`
      const viaConstructor = this.constructor.constructor('return typeof process')();
      const viaFunction = Function('return typeof require')();
      const viaGlobal = typeof globalThis.process;
      let viaImport = 'refused';
      try { import('fs').then(() => {}, () => {}); } catch (e) { viaImport = 'threw'; }
      return { viaConstructor, viaFunction, viaGlobal };
    `);
    expect(result.records[0]).toEqual({ viaConstructor: 'undefined', viaFunction: 'undefined', viaGlobal: 'undefined' });
  });

  it('has only ECMAScript globals and console', async () => {
    const result = await run('return { names: Object.getOwnPropertyNames(globalThis) };');
    const language = new Set(
      'AggregateError Array ArrayBuffer BigInt BigInt64Array BigUint64Array Boolean DataView Date Error EvalError FinalizationRegistry Float16Array Float32Array Float64Array Function Infinity Int16Array Int32Array Int8Array InternalError Iterator JSON Map Math NaN Number Object Promise Proxy RangeError ReferenceError Reflect RegExp Set SharedArrayBuffer String Symbol SyntaxError TypeError URIError Uint16Array Uint32Array Uint8Array Uint8ClampedArray WeakMap WeakRef WeakSet decodeURI decodeURIComponent encodeURI encodeURIComponent escape eval globalThis isFinite isNaN parseFloat parseInt undefined unescape console'.split(
        ' ',
      ),
    );
    expect((result.records[0].names as string[]).filter((n) => !language.has(n))).toEqual([]);
  });

  it('starts every batch from a clean context', async () => {
    const sandbox = new CodeSandbox('globalThis.seen = (globalThis.seen ?? 0) + 1; return { seen };');
    await sandbox.runBatch([{}]);
    expect((await sandbox.runBatch([{}])).records).toEqual([{ seen: 1 }]);
  });
});

describe('CodeSandbox: failures are typed, located and contained', () => {
  it('reports a syntax error with its line', async () => {
    const error = await failure(run('const a = 1;\nconst b = 2;\nreturn { a: = b };'));
    expect(error).toMatchObject({ code: 'syntax', line: 3, key: 'server.sandbox.syntax' });
    expect(error.values.name).toBe('SyntaxError');
  });

  it('reports a thrown error with its message, record and line', async () => {
    const error = await failure(run('if (record.a === 2) {\n  throw new Error("a is two");\n}\nreturn record;', [{ a: 1 }, { a: 2 }]));
    expect(error).toMatchObject({ code: 'thrown', recordIndex: 1, line: 2, values: { name: 'Error', message: 'a is two' } });
  });

  it('reports a runtime TypeError the same way', async () => {
    const error = await failure(run('\nreturn { x: record.missing.deeper };'));
    expect(error).toMatchObject({ code: 'thrown', recordIndex: 0, line: 2, values: { name: 'TypeError' } });
  });

  it('stops an endless loop at the batch’s deadline, even one that catches errors', async () => {
    const started = Date.now();
    const error = await failure(run('for (;;) { try { while (true) {} } catch (e) {} }', [{ a: 1 }, { a: 2 }], { timeoutMs: 300 }));
    expect(error).toMatchObject({ code: 'timeout', recordIndex: 0, values: { seconds: 0.3 } });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('stops a memory bomb at the memory limit, quickly', async () => {
    for (const bomb of [
      "let a=[];while(1)a.push('x'.repeat(1e6))",
      'let a = []; while (1) a.push(new Array(1e5).fill(0));',
      'let a = []; while (1) a.push({ n: a.length });',
    ]) {
      const started = Date.now();
      const error = await failure(run(bomb, [{ a: 1 }], { memoryLimitBytes: 32 * 1024 * 1024 }));
      expect({ bomb, code: error.code, values: error.values, recordIndex: error.recordIndex }).toMatchObject({ bomb, code: 'memory', recordIndex: 0 });
      expect(Date.now() - started).toBeLessThan(4000);
    }
  });

  it('stops deep recursion at the stack limit', async () => {
    const error = await failure(run('function f(n) { return f(n + 1) + 1; }\nreturn { x: f(0) };'));
    expect(error).toMatchObject({ code: 'stack', recordIndex: 0 });
  });

  it('refuses results over the output limit, naming the record that crossed it', async () => {
    const error = await failure(run('return { s: "x".repeat(400) };', [{}, {}, {}], { maxOutputChars: 1000 }));
    expect(error).toMatchObject({ code: 'output_too_large', recordIndex: 2 });
  });

  it('refuses an input over the input limit before starting', async () => {
    const error = await failure(run('return record;', [{ s: 'x'.repeat(2000) }], { maxInputChars: 1000 }));
    expect(error.code).toBe('input_too_large');
  });

  it('reports the user’s own `throw null` as thrown, not as memory', async () => {
    const error = await failure(run('throw null;'));
    expect(error).toMatchObject({ code: 'thrown', recordIndex: 0, values: { name: 'null' } });
  });

  it('times out a per-batch function without naming a record', async () => {
    const error = await failure(new CodeSandbox('for (;;) {}', 'per_batch', { timeoutMs: 100 }).runBatch([{}]));
    expect(error).toMatchObject({ code: 'timeout', recordIndex: undefined });
  });

  it('turns a failure of the WebAssembly module itself into a typed crash', async () => {
    const broken = {
      newRuntime: () => {
        throw new RangeError('Maximum call stack size exceeded');
      },
      getWasmMemory: () => new WebAssembly.Memory({ initial: 1 }),
    };
    const error = await failure(new CodeSandbox('return record;', 'per_record', {}, () => Promise.resolve(broken)).runBatch([{}]));
    expect(error).toMatchObject({ code: 'crashed', key: 'server.sandbox.crashed', values: { message: 'Maximum call stack size exceeded' } });
  });

  it('works normally after each kind of failure', async () => {
    await failure(run('while (true) {}', [{}], { timeoutMs: 50 }));
    await failure(run('function f() { return f(); } return f();'));
    expect((await run('return { ok: true };')).records).toEqual([{ ok: true }]);
  });
});

describe('CodeSandbox: memory', () => {
  // Over Jest’s 5 s: QuickJS’s debug build (leak tracking on every object) over a dozen sandbox runs (7–11 s on a loaded 2-core machine).
  it('frees every QuickJS object it makes, whatever the outcome (debug build leak check)', async () => {
    const module = new TestQuickJSWASMModule(await newQuickJS(null, 'debug'));
    const load = () => Promise.resolve(module);
    const cases: [string, Partial<SandboxLimits>][] = [
      ['console.log(record); return [record, record];', {}],
      ['throw new Error("x")', {}],
      ['return { f() {} };', {}],
      ['syntax error (', {}],
      ['while (true) {}', { timeoutMs: 50 }],
      ['function f() { return f(); } return f();', {}],
    ];
    for (const [code, limits] of cases) {
      await new CodeSandbox(code, 'per_record', limits, load).runBatch([{ a: 1 }]).catch((err: unknown) => {
        if (!(err instanceof SandboxError)) throw err;
      });
    }
    expect([...module.runtimes, ...module.contexts].filter((owner) => owner.alive)).toEqual([]);
    // The debug build's LeakSanitizer: 1 while any allocation (a handle, a string) is still live.
    // (assertNoMemoryAllocated would also count runtimes that 0.32's test wrapper forgets to
    // remove from its set after their disposal.)
    expect(module.getFFI().QTS_RecoverableLeakCheck()).toBe(0);
  }, 45_000);

  it('stays flat over 200 batches in a row', async () => {
    // A module of its own, so the memory bombs above have not already grown it.
    const module = await newQuickJS(64 * 1024 * 1024);
    const sandbox = new CodeSandbox('console.log(record.i); return { ...record, text: "x".repeat(100) };', 'per_record', {}, () => Promise.resolve(module));
    const batch = Array.from({ length: 100 }, (_, i) => ({ i }));
    for (let i = 0; i < 20; i++) await sandbox.runBatch(batch);
    const before = module.getWasmMemory().buffer.byteLength;
    for (let i = 0; i < 200; i++) await sandbox.runBatch(batch);
    expect(module.getWasmMemory().buffer.byteLength).toBe(before);
  });
});

describe('the code step’s catalogue text', () => {
  it('states the sandbox’s own limits and modes', () => {
    const step = getStepDescription('code')!;
    const mib = defaultSandboxLimits.memoryLimitBytes / 1024 / 1024;
    expect(step.description).toContain(`up to ${mib} MiB`);
    expect(step.i18n?.['zh-CN']?.description).toContain(`${mib} MiB`);
    const param = (name: string) => step.params.find((p) => p.name === name)!;
    expect(param('timeout_ms').default).toBe(defaultSandboxLimits.timeoutMs);
    expect(param('code').help).toContain(`up to ${defaultSandboxLimits.maxLogLines} per batch`);
    const modes: CodeMode[] = ['per_record', 'per_batch'];
    expect(param('mode')).toMatchObject({ options: modes, default: 'per_record' });
  });
});

describe('SandboxError texts', () => {
  it('has an English and a Chinese text for every code', () => {
    const codes: SandboxErrorCode[] = [
      'syntax',
      'thrown',
      'timeout',
      'memory',
      'stack',
      'output_too_large',
      'not_json',
      'bad_return',
      'input_too_large',
      'crashed',
    ];
    for (const catalog of [en, zhCN] as Record<string, string>[]) {
      for (const c of codes) expect(catalog[new SandboxError(c).key]).toEqual(expect.any(String));
    }
  });
});
