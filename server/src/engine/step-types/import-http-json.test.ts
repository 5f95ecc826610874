import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ParamValues } from '../params';
import { INLINE_JSON_PAGE_BYTES, jsonPagesReadInWorker, jsonPageWorkersRunning } from '../sources/json-page-reader';
import { StepParamsInvalid } from '../runners';
import { bed, failure, rowsOf, runner, useSourceTestbed } from '../../test/engine/source-testbed';

// The source steps on real DuckDB, reading real files from a folder as the engine hands them over.

useSourceTestbed();

const BIG_PAGE = 20_000;
const BIG_TOTAL = 50_000;

describe('import_http_json', () => {
  let server: http.Server;
  let base: string;
  const calls: string[] = [];
  const items = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, name: `item ${i + 1}`, price: i + 0.5 }));
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      calls.push(`${url.pathname}${url.search} ${req.headers.authorization ?? ''}`.trim());
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      if (url.pathname === '/paged') {
        const page = Number(url.searchParams.get('p'));
        return json(200, { data: { items: items.slice((page - 1) * 2, page * 2) } });
      }
      if (url.pathname === '/cursor') {
        const at = Number(url.searchParams.get('after') ?? 0);
        return json(200, { results: items.slice(at, at + 2), meta: { next: at + 2 < items.length ? at + 2 : null } });
      }
      if (url.pathname === '/linked') {
        const page = Number(url.searchParams.get('page') ?? 1);
        const next: Record<string, string> = page < 3 ? { link: `</linked?page=${page + 1}>; rel="next"` } : {};
        return json(200, items.slice((page - 1) * 2, page * 2), next);
      }
      if (url.pathname === '/names') return json(200, ['a', 'b']);
      if (url.pathname === '/big') {
        // Pages of about 1 MB (BIG_PAGE records), read in a worker thread; the last lists fewer.
        const at = Number(url.searchParams.get('after') ?? 0);
        const end = Math.min(at + BIG_PAGE, BIG_TOTAL);
        const rows = Array.from({ length: end - at }, (_, i) => ({ id: at + i, name: `record number ${at + i}`, tags: ['a', 'b'] }));
        return json(200, { rows, next: end < BIG_TOTAL ? String(end) : null });
      }
      if (url.pathname === '/big-broken') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(`[${'{"id": 1},'.repeat(50_000)}`);
      }
      if (url.pathname === '/html') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<p>hi</p>');
      }
      json(404, { error: 'no' });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const runApi = (params: ParamValues, options: { sampleSize?: number; vars?: Record<string, unknown> } = {}) => {
    const ctx = bed.context(options);
    return runner('import_http_json')
      .run(ctx, params)
      .then(async (meta) => ({ meta, rows: await rowsOf(meta), ctx }));
  };

  it('follows page numbers until a page is empty, with headers from variables', async () => {
    calls.length = 0;
    const { rows, meta } = await runApi(
      { url: `${base}/paged?q={{var.q}}`, headers: { Authorization: 'Bearer {{var.token}}' }, records_path: 'data.items', pagination: 'page', page_param: 'p' },
      { vars: { q: 'a b', token: 's3cret' } },
    );
    expect(rows).toEqual(items);
    expect(meta.columns.slice(1)).toEqual([
      { name: 'id', type: 'BIGINT' },
      { name: 'name', type: 'VARCHAR' },
      { name: 'price', type: 'DOUBLE' },
    ]);
    expect(calls).toEqual([
      '/paged?q=a+b&p=1 Bearer s3cret',
      '/paged?q=a+b&p=2 Bearer s3cret',
      '/paged?q=a+b&p=3 Bearer s3cret',
      '/paged?q=a+b&p=4 Bearer s3cret',
    ]);
  });

  it('follows a cursor and a Link header, stopping at max_pages and the sample size', async () => {
    expect((await runApi({ url: `${base}/cursor`, records_path: 'results', pagination: 'cursor', page_param: 'after', next_path: 'meta.next' })).rows).toEqual(
      items,
    );
    const linked = await runApi({ url: `${base}/linked`, pagination: 'next_link', max_pages: 2 });
    expect(linked.rows.map((r) => r.id)).toEqual([1, 2, 3, 4]);
    expect(linked.ctx.lines[0]).toBe('Stopped after 2 page(s), the most this step may call (max_pages)');
    calls.length = 0;
    expect((await runApi({ url: `${base}/linked`, pagination: 'next_link' }, { sampleSize: 3 })).rows.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(calls).toHaveLength(2);
    expect((await runApi({ url: `${base}/names` })).rows).toEqual([{ value: 'a' }, { value: 'b' }]);
  });

  it('fails clearly on an error status, a non-JSON answer, a missing path or an unknown variable', async () => {
    expect(await failure('import_http_json', { url: `${base}/missing?key=secret` })).toBe(
      `The step failed while running: GET ${base}/missing answered HTTP 404`,
    );
    expect(await failure('import_http_json', { url: `${base}/html` })).toBe(
      `The step failed while running: GET ${base}/html did not answer JSON (Content-Type: text/html)`,
    );
    expect(await failure('import_http_json', { url: `${base}/paged?p=1`, records_path: 'data.rows' })).toBe(
      `The step failed while running: The answer of GET ${base}/paged has nothing at “data.rows”`,
    );
    const blocked = await failure('import_http_json', { url: 'http://10.0.0.1/x' });
    expect(blocked).toMatch(/^The step failed while running: GET http:\/\/10\.0\.0\.1\/x: /);
    const err = await runner('import_http_json')
      .run(bed.context(), { url: `${base}/x?k={{var.nope}}` })
      .catch((e: unknown) => e);
    expect((err as StepParamsInvalid).problems).toEqual([{ key: 'server.steps.unresolvedReference', loc: ['url'], values: { reference: '{{var.nope}}' } }]);
  });

  describe('large pages, parsed off the event loop (decision 0070)', () => {
    /** The lengths of the texts JSON.parse was given on this thread while `during` ran. */
    async function parsedHere<T>(during: () => Promise<T>): Promise<{ result: T; lengths: number[] }> {
      const spy = jest.spyOn(JSON, 'parse');
      try {
        const result = await during();
        return { result, lengths: spy.mock.calls.map(([text]) => String(text).length) };
      } finally {
        spy.mockRestore();
      }
    }

    it('reads pages over INLINE_JSON_PAGE_BYTES in a worker thread: every record, the cursor followed, the worker ended', async () => {
      const before = jsonPagesReadInWorker();
      const { result, lengths } = await parsedHere(() =>
        runApi({ url: `${base}/big`, records_path: 'rows', pagination: 'cursor', page_param: 'after', next_path: 'next' }),
      );
      expect(result.meta.rowCount).toBe(BIG_TOTAL);
      const rows = result.rows;
      expect(rows[0]).toMatchObject({ id: 0, name: 'record number 0', tags: ['a', 'b'] });
      // Three pages (20,000, 20,000 and 10,000 records), each over the bound: all three read in the worker.
      expect(jsonPagesReadInWorker() - before).toBe(3);
      // Nothing the size of a page was parsed on this thread.
      expect(lengths.filter((n) => n > INLINE_JSON_PAGE_BYTES)).toEqual([]);
      expect(jsonPageWorkersRunning()).toBe(0);
    }, 30_000);

    it('stops at the sample size inside a large page', async () => {
      const { rows } = await runApi(
        { url: `${base}/big`, records_path: 'rows', pagination: 'cursor', page_param: 'after', next_path: 'next' },
        { sampleSize: 25 },
      );
      expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 25 }, (_, i) => i));
      expect(jsonPageWorkersRunning()).toBe(0);
    }, 30_000);

    it('keeps small pages on the step’s thread', async () => {
      const before = jsonPagesReadInWorker();
      await runApi({ url: `${base}/paged`, records_path: 'data.items', pagination: 'page', page_param: 'p' });
      expect(jsonPagesReadInWorker()).toBe(before);
    });

    it('says a large page that does not parse is not JSON, and ends the worker', async () => {
      expect(await failure('import_http_json', { url: `${base}/big-broken` })).toBe(
        `The step failed while running: GET ${base}/big-broken did not answer JSON (Content-Type: application/json)`,
      );
      expect(jsonPageWorkersRunning()).toBe(0);
    }, 30_000);

    it('ends its worker when the step is stopped', async () => {
      const controller = new AbortController();
      // Stopped once the first large page is read, while the worker is alive.
      const ctx = { ...bed.context({ signal: controller.signal }), progress: () => controller.abort(new Error('paused')) };
      const err = await runner('import_http_json')
        .run(ctx, { url: `${base}/big`, records_path: 'rows', pagination: 'cursor', page_param: 'after', next_path: 'next' })
        .catch((e: unknown) => e as Error);
      expect(err).toBeInstanceOf(Error);
      expect(jsonPageWorkersRunning()).toBe(0);
    }, 30_000);
  });
});
