import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { stepTypes } from '../../engine/step-types';

const BASE = '/api/v1/workflow-step-infos';

/** Search by meaning with the built-in local embedding (no EMBEDDING_MODEL): plain-language queries. */
describe('step infos: search by meaning', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  // Over Jest’s 5 s on a loaded machine: a test app on a fresh database and a sign-up (past 5 s on PostgreSQL in CI, 2026-11-28).
  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: 'curator@example.com' });
    auth = (await signedInUser(t.app)).auth;
  }, 15_000);
  afterAll(() => t.close());

  const search = async (q: string, extra = '', headers = auth) => {
    const res = await t.app.inject({ url: `${BASE}/?q=${encodeURIComponent(q)}${extra}`, headers });
    expect(res.statusCode).toBe(200);
    return res.json() as { items: { id: string; score: number }[]; total: number; ranking: string };
  };

  it('the first search embeds the catalogue by itself', async () => {
    const res = await search('remove duplicate rows');
    expect(res.ranking).toBe('meaning');
    expect(res.items[0].id).toBe('deduplicate');
    const ensure = await t.app.inject({ method: 'POST', url: `${BASE}/embeddings/ensure`, headers: auth });
    expect(ensure.statusCode).toBe(200);
    expect(ensure.json()).toEqual({ model: 'local-hash-v1', dimensions: 1024, total: stepTypes.length, computed: 0, unchanged: stepTypes.length });
  });

  it.each([
    ['remove duplicate rows', 'deduplicate'],
    ['get rid of repeated records', 'deduplicate'],
    ['combine two tables', 'join'],
    ['merge datasets by customer id', 'join'],
    ['ask an AI about each row', 'ai_prompt'],
    ['summarize each review with gpt', 'ai_summarize'],
    ['classify each ticket into categories with ai', 'ai_classify'],
    ['extract fields from emails with ai', 'ai_extract'],
    ['turn text into embedding vectors', 'ai_embed'],
    ['call an API for every record', 'http_request'],
    ['send each record to a webhook', 'http_request'],
    ['post the results to a webhook', 'webhook'],
    ['export to excel', 'export_file'],
    ['keep only some rows', 'filter'],
    ['save as csv', 'export_csv'],
    ['sort by date', 'sort'],
    ['count orders per country', 'aggregate'],
    ['rename a field', 'rename_columns'],
    ['first 10 rows', 'limit'],
    ['write javascript', 'code'],
    ['stack two files', 'union'],
    ['read all pdfs in a folder', 'import_folder'],
    ['drop columns', 'select_columns'],
    ['calculate total price', 'add_column'],
    ['去除重复', 'deduplicate'],
    ['合并两张表', 'join'],
  ])('"%s" finds %s first', async (q, expected) => {
    const res = await search(q);
    expect([q, res.ranking, res.items[0]?.id]).toEqual([q, 'meaning', expected]);
  });

  it('ranks best first with scores, keeps only plausible matches, and pages', async () => {
    const res = await search('remove duplicate rows');
    const scores = res.items.map((i) => i.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(res.total).toBeLessThan(30);
    expect(res.items.map((i) => i.id)).not.toContain('export_parquet');
    const page = await search('remove duplicate rows', '&page_size=1&page=2');
    expect(page.items.map((i) => i.id)).toEqual([res.items[1].id]);
    expect(page.total).toBe(res.total);
  });

  it('combines with category and tag filters', async () => {
    expect((await search('save as csv', '&category=source')).items.map((i) => i.id)).toEqual(['import_csv', 'import_file', 'import_folder']);
    expect((await search('combine two tables', '&category=output')).items).toEqual([]);
    const tagged = await search('save', '&tag=file');
    expect(tagged.items.every((i) => ['import_csv', 'import_file', 'import_folder', 'export_csv', 'export_parquet', 'export_file'].includes(i.id))).toBe(true);
  });

  it("an admin's new description is embedded again and found", async () => {
    const admin = (await signedInUser(t.app, { email: 'curator@example.com' })).auth;
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `${BASE}/by-tag/sample`,
      headers: admin,
      payload: { description: 'Pick a handful of flamingos to try things on.' },
    });
    expect(patched.statusCode).toBe(200);
    expect((await search('flamingos')).items[0].id).toBe('limit');
    const ensure = (await t.app.inject({ method: 'POST', url: `${BASE}/embeddings/ensure`, headers: auth })).json();
    expect(ensure).toMatchObject({ computed: 0, unchanged: stepTypes.length });
  });
});
