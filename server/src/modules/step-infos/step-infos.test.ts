import { stepCategories, stepDescriptions } from '../../engine/step-types';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';

const BASE = '/api/v1/workflow-step-infos';

describe('step infos', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: 'curator@example.com' });
    auth = (await signedInUser(t.app)).auth;
    admin = (await signedInUser(t.app, { email: 'curator@example.com' })).auth;
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = auth) => t.app.inject({ url: `${BASE}${url}`, headers });
  const patchTag = (tag: string, payload: object, headers: Record<string, string> = admin) =>
    t.app.inject({ method: 'PATCH', url: `${BASE}/by-tag/${encodeURIComponent(tag)}`, headers, payload });

  it('every call needs a token', async () => {
    for (const [method, url] of [
      ['GET', '/'],
      ['GET', '/filter'],
      ['GET', '/categories/'],
      ['GET', '/categories/source'],
      ['GET', '/categorized/'],
      ['POST', '/embeddings/ensure'],
      ['PATCH', '/by-tag/rows'],
    ] as const) {
      const res = await t.app.inject({ method, url: `${BASE}${url}` });
      expect([method, url, res.statusCode]).toEqual([method, url, 401]);
    }
  });

  it('GET / lists the whole catalogue, paged, in catalogue order', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: stepDescriptions.length, page: 1, page_size: 50, ranking: 'catalogue' });
    expect(body.items.map((i: { id: string }) => i.id)).toEqual(stepDescriptions.map((s) => s.id));

    const page2 = (await get('/?page=2&page_size=5')).json();
    expect(page2).toMatchObject({ total: stepDescriptions.length, page: 2, page_size: 5 });
    expect(page2.items.map((i: { id: string }) => i.id)).toEqual(stepDescriptions.slice(5, 10).map((s) => s.id));
  });

  it('GET /{id} answers one info with its whole param schema', async () => {
    const res = await get('/deduplicate');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: 'deduplicate',
      name: 'Remove duplicates',
      description: expect.stringContaining('duplicate rows'),
      category: 'transform',
      tags: ['deduplicate', 'duplicates', 'rows', 'clean'],
      params: [
        { name: 'columns', type: 'columns', label: 'Compare columns', help: expect.any(String), required: false, default: [] },
        { name: 'keep', type: 'enum', label: 'Which copy stays', help: expect.any(String), required: false, default: 'first', options: ['first', 'last'] },
        { name: 'ignore_case', type: 'boolean', label: 'Ignore upper/lower case', help: expect.any(String), required: false, default: false },
      ],
      inputs: { min: 1, max: 1 },
      outputs: ['dataset'],
      cost: { per: 'run', credits: 0, note: 'Free.' },
      customized: false,
    });
    const join = (await get('/join')).json();
    expect(join.inputs).toEqual({ min: 2, max: 2 });
    expect(join.params[1]).toMatchObject({ name: 'right_on', input_index: 1, same_length_as: 'left_on' });
    expect((await get('/union')).json().inputs).toEqual({ min: 2, max: null });
    expect((await get('/ai_prompt')).json()).toMatchObject({ category: 'enrich', cost: { per: 'record', credits: 1 } });
  });

  it('GET /{id} answers 404 {detail} for an unknown id', async () => {
    const res = await get('/teleport');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Step type not found.' });
  });

  it('filters by category and by tags (repeated or comma-separated: any of them)', async () => {
    const sources = (await get('/?category=source')).json();
    expect(sources.items.map((i: { id: string }) => i.id)).toEqual([
      'import_csv',
      'import_file',
      'import_folder',
      'import_dataset',
      'table_input',
      'import_http_json',
    ]);
    expect(sources.total).toBe(6);

    const ids = async (query: string) => (await get(`/?${query}`)).json().items.map((i: { id: string }) => i.id);
    expect(await ids('tag=csv')).toEqual(['import_csv', 'import_file', 'export_csv']);
    expect(await ids('tag=csv&tag=parquet')).toEqual(['import_csv', 'import_file', 'export_csv', 'export_parquet']);
    expect(await ids('tag=csv,parquet')).toEqual(['import_csv', 'import_file', 'export_csv', 'export_parquet']);
    expect(await ids('tag=CSV&category=output')).toEqual(['export_csv']);
    expect(await ids('tag=no-such-tag')).toEqual([]);
  });

  it('refuses bad list queries with located 422s', async () => {
    const res = await get('/?category=teleport&page=0&page_size=1000&colour=red');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual(
      expect.arrayContaining([
        { msg: 'Must be one of: source, transform, combine, enrich, output', loc: ['query', 'category'] },
        { msg: 'Must be at least 1', loc: ['query', 'page'] },
        { msg: 'Must be at most 200', loc: ['query', 'page_size'] },
        { msg: 'Unknown field', loc: ['query', 'colour'] },
      ]),
    );
    expect((await get(`/?q=${'x'.repeat(501)}`)).statusCode).toBe(422);
  });

  it('GET /categories/ lists the categories with counts', async () => {
    const res = await get('/categories/');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(5);
    expect(body.items.map((c: { id: string }) => c.id)).toEqual(['source', 'transform', 'combine', 'enrich', 'output']);
    expect(body.items[0]).toEqual({ id: 'source', name: 'Sources', description: expect.any(String), count: 6 });
    expect(body.items.reduce((n: number, c: { count: number }) => n + c.count, 0)).toBe(stepDescriptions.length);
  });

  it('GET /categories/{id} answers one category with its infos; 404 for an unknown one', async () => {
    const res = await get('/categories/combine');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: 'combine', name: 'Combine', count: 2, items: [{ id: 'join' }, { id: 'union' }] });
    const missing = await get('/categories/teleport');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Category not found.' });
  });

  it('GET /categorized/ answers every category with its infos', async () => {
    const body = (await get('/categorized/')).json();
    expect(body.total).toBe(5);
    // Every category in the catalogue's order, holding every step type of the registry in it.
    const expected = stepCategories.map((category) => [category, stepDescriptions.filter((d) => d.category === category).length]);
    expect(body.items.map((c: { id: string; items: unknown[] }) => [c.id, c.items.length])).toEqual(expected);
    expect(expected.every(([, count]) => (count as number) > 0)).toBe(true);
    expect(body.items[4].items[0]).toMatchObject({ id: 'export_csv', category: 'output', params: expect.any(Array) });
  });

  it('answers in Chinese for a Chinese request: names, descriptions, param texts, cost notes, categories', async () => {
    const zh = { ...auth, 'accept-language': 'zh-CN,zh;q=0.9' };
    const info = (await get('/deduplicate', zh)).json();
    expect(info.name).toBe('去除重复');
    expect(info.description).toContain('重复');
    expect(info.params[1]).toMatchObject({ name: 'keep', label: '保留哪一行', options: ['first', 'last'] });
    expect(info.cost.note).toBe('免费。');
    const categories = (await get('/categories/', zh)).json();
    expect(categories.items[0]).toMatchObject({ id: 'source', name: '数据来源' });
    expect((await get('/categories/teleport', zh)).json()).toEqual({ detail: '未找到该分类。' });
    // The fields of a json param's rows (an aggregation's), in the reader's language too.
    const fieldsOf = async (headers: Record<string, string>) =>
      ((await get('/aggregate', headers)).json().params as { name: string; fields?: { name: string; label: string; kind: string }[] }[]).find(
        (p) => p.name === 'aggregations',
      )?.fields;
    expect((await fieldsOf(auth))?.map((f) => [f.name, f.kind, f.label])).toEqual([
      ['column', 'column', 'Column'],
      ['function', 'enum', 'Function'],
      ['as', 'text', 'Result column'],
    ]);
    expect((await fieldsOf(zh))?.map((f) => f.label)).toEqual(['列', '函数', '结果列名']);
  });

  describe('PATCH /by-tag/{tag}', () => {
    it('is for admins only: 403 {detail} for others, and nothing changes', async () => {
      const res = await patchTag('rows', { name: 'Hacked' }, auth);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: 'You do not have permission to do this.' });
      expect((await get('/filter')).json()).toMatchObject({ name: 'Filter rows', customized: false });
    });

    it('validates the body', async () => {
      const res = await patchTag('rows', { name: '', category: 'teleport', tags: 'x', colour: 'red' });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual(
        expect.arrayContaining([
          { msg: 'Must not be empty', loc: ['body', 'name'] },
          { msg: 'Must be one of: source, transform, combine, enrich, output', loc: ['body', 'category'] },
          { msg: 'Unknown field', loc: ['body', 'colour'] },
        ]),
      );
      expect((await patchTag('rows', {})).statusCode).toBe(422);
    });

    it('answers 404 for a tag no info has', async () => {
      const res = await patchTag('teleport', { description: 'Beam me up' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'No step has the tag "teleport".' });
    });

    it('changes every info with the tag, visible in list and get; Chinese keeps its own texts; null resets', async () => {
      const res = await patchTag('per-record', { description: 'Runs once for every record.', tags: ['per-record', 'slow'] });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.message).toBe('Updated 7 steps.');
      expect(body.total).toBe(7);
      expect(body.items.map((i: { id: string }) => i.id)).toEqual([
        'code',
        'ai_prompt',
        'ai_classify',
        'ai_extract',
        'ai_summarize',
        'ai_embed',
        'http_request',
      ]);
      for (const item of body.items) expect(item).toMatchObject({ description: 'Runs once for every record.', tags: ['per-record', 'slow'], customized: true });

      expect((await get('/ai_prompt')).json()).toMatchObject({ name: 'AI prompt', description: 'Runs once for every record.', tags: ['per-record', 'slow'] });
      expect((await get('/?tag=slow')).json().total).toBe(7);
      expect((await get('/?tag=llm')).json().total).toBe(0);

      // An English text does not replace the built-in Chinese one…
      const zh = { ...auth, 'accept-language': 'zh-CN' };
      expect((await get('/ai_prompt', zh)).json()).toMatchObject({
        name: 'AI 提示',
        description: expect.stringContaining('大语言模型'),
        tags: ['per-record', 'slow'],
      });

      // …a Chinese one does (the admin works in Chinese, or says locale: cn).
      const cn = await patchTag('slow', { name: '逐条处理' }, { ...admin, 'accept-language': 'zh-CN' });
      expect(cn.json().message).toBe('已更新 7 个步骤。');
      expect((await get('/code', zh)).json().name).toBe('逐条处理');
      expect((await get('/code')).json().name).toBe('Run code');
      await patchTag('slow', { name: 'Per record', locale: 'en' });
      expect((await get('/code')).json().name).toBe('Per record');

      // null (or the built-in value) removes the override.
      const reset = await patchTag('slow', { name: null, description: null, tags: null });
      expect(reset.statusCode).toBe(200);
      // The Chinese name is still an override.
      expect((await get('/code')).json()).toMatchObject({ name: 'Run code', tags: ['code', 'javascript', 'script', 'per-record'], customized: true });
      expect((await get('/code', zh)).json().name).toBe('逐条处理');
      await patchTag('per-record', { name: null, locale: 'cn' });
      expect((await get('/code', zh)).json()).toMatchObject({ name: '运行代码', customized: false });
    });

    it('moves infos to another category; setting the built-in value again clears the override', async () => {
      await patchTag('sample', { category: 'source' });
      const sources = (await get('/categories/source')).json();
      expect(sources.count).toBe(7);
      expect(sources.items.map((i: { id: string }) => i.id)).toContain('limit');
      expect((await get('/?category=transform')).json().items.map((i: { id: string }) => i.id)).not.toContain('limit');
      await patchTag('sample', { category: 'transform' });
      expect((await get('/limit')).json()).toMatchObject({ category: 'transform', customized: false });
    });
  });
});
