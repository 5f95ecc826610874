import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { stepTypes } from '../../engine/step-types';

const BASE = '/api/v1/workflow-step-infos';

/**
 * A stand-in for an OpenAI-compatible embeddings service: a real HTTP server on loopback speaking
 * the `/v1/embeddings` protocol. Its vectors are deterministic: one dimension per keyword, counting
 * how often the text mentions it, plus a constant so no vector is zero.
 */
const KEYWORDS = ['duplicate', 'join', 'ai', 'api', 'filter', 'csv', 'sort', 'parquet'];

function standInVector(text: string): number[] {
  const words = text.toLowerCase().split(/[^a-z]+/);
  return [...KEYWORDS.map((k) => words.filter((w) => w.startsWith(k)).length), 0.1];
}

interface Received {
  authorization: string | undefined;
  model: string;
  inputs: string[];
}

async function startStandIn(options: { rejectKey?: string } = {}) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const { model, input } = JSON.parse(body) as { model: string; input: string | string[] };
      const inputs = [input].flat();
      received.push({ authorization: req.headers.authorization, model, inputs });
      if (options.rejectKey && req.headers.authorization === `Bearer ${options.rejectKey}`) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          // Out of order on purpose: clients must follow `index`.
          data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: standInVector(text) })).reverse(),
          model,
          usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('step infos: search with a configured embedding model', () => {
  let standIn: Awaited<ReturnType<typeof startStandIn>>;
  beforeAll(async () => {
    standIn = await startStandIn({ rejectKey: 'wrong-key' });
  });
  afterAll(() => standIn.close());

  describe('when the model answers', () => {
    let t: TestApp;
    let auth: Record<string, string>;
    beforeAll(async () => {
      t = await createTestApp({ EMBEDDING_API_URL: standIn.url, EMBEDDING_API_KEY: 'test-key', EMBEDDING_MODEL: 'test-embed' });
      auth = (await signedInUser(t.app)).auth;
    });
    afterAll(() => t.close());

    it('POST /embeddings/ensure embeds every info through the API, once', async () => {
      standIn.received.length = 0;
      const res = await t.app.inject({ method: 'POST', url: `${BASE}/embeddings/ensure`, headers: auth });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ model: 'openai:test-embed', dimensions: 9, total: stepTypes.length, computed: stepTypes.length, unchanged: 0 });
      expect(standIn.received).toHaveLength(1);
      expect(standIn.received[0]).toMatchObject({ authorization: 'Bearer test-key', model: 'test-embed' });
      expect(standIn.received[0].inputs).toHaveLength(stepTypes.length);
      expect(standIn.received[0].inputs[9]).toContain('Remove duplicates');

      const again = await t.app.inject({ method: 'POST', url: `${BASE}/embeddings/ensure`, headers: auth });
      expect(again.json()).toMatchObject({ computed: 0, unchanged: stepTypes.length });
      expect(standIn.received).toHaveLength(1);
    });

    it("ranks by the model's vectors, embedding the query with the same model (and remembering it)", async () => {
      standIn.received.length = 0;
      const res = await t.app.inject({ url: `${BASE}/?q=${encodeURIComponent('parquet')}`, headers: auth });
      // import_folder reads Parquet files too (read: records), so its texts name the format.
      expect(res.json()).toMatchObject({ ranking: 'meaning', items: [{ id: 'export_parquet' }, { id: 'import_folder' }, { id: 'import_file' }] });
      expect(standIn.received).toEqual([{ authorization: 'Bearer test-key', model: 'test-embed', inputs: ['parquet'] }]);

      await t.app.inject({ url: `${BASE}/?q=parquet`, headers: auth });
      expect(standIn.received).toHaveLength(1);

      const dedupe = (await t.app.inject({ url: `${BASE}/?q=duplicates`, headers: auth })).json();
      expect(dedupe.items[0].id).toBe('deduplicate');
    });
  });

  describe('when the model refuses', () => {
    let t: TestApp;
    let auth: Record<string, string>;
    beforeAll(async () => {
      t = await createTestApp({ EMBEDDING_API_URL: `${standIn.url}/embeddings`, EMBEDDING_API_KEY: 'wrong-key', EMBEDDING_MODEL: 'test-embed' });
      auth = (await signedInUser(t.app)).auth;
    });
    afterAll(() => t.close());

    it('ensure answers 502 {detail}; search falls back to words, still useful', async () => {
      const res = await t.app.inject({ method: 'POST', url: `${BASE}/embeddings/ensure`, headers: auth });
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({ detail: expect.stringContaining('search by meaning is unavailable') });
      // The endpoint URL was accepted with its /embeddings suffix too.
      expect(standIn.received.at(-1)).toMatchObject({ authorization: 'Bearer wrong-key' });

      const search = await t.app.inject({ url: `${BASE}/?q=${encodeURIComponent('remove duplicates')}`, headers: auth });
      expect(search.statusCode).toBe(200);
      expect(search.json().ranking).toBe('text');
      expect(search.json().items[0].id).toBe('deduplicate');
      const zh = await t.app.inject({ url: `${BASE}/?q=${encodeURIComponent('去除重复')}`, headers: { ...auth, 'accept-language': 'zh-CN' } });
      expect(zh.json().ranking).toBe('text');
      expect(zh.json().items[0]).toMatchObject({ id: 'deduplicate', name: '去除重复' });
    });
  });
});
