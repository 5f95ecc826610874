import { mailsTo } from '../../test/outbox';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { setUserRole } from '../users/set-role';

let t: TestApp;
const RATE = 3;

beforeAll(async () => {
  t = await createTestApp({ CONTACT_RATE_LIMIT_PER_HOUR: String(RATE), PUBLIC_URL: 'https://stepwise.example.com' });
});
afterAll(() => t.close());

type Auth = { authorization: string };
const api = (method: 'GET' | 'POST' | 'PATCH', url: string, headers?: Auth, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/contact${url}`, headers, payload });

async function withRole(role: 'support' | 'admin', overrides: { name?: string } = {}) {
  const who = await signedInUser(t.app, overrides);
  await setUserRole(t.app.db, who.account.email, role);
  return who;
}

const submit = (auth: Auth, subject = 'Cannot export', message = 'The CSV export stops at 1000 rows.', category = 'technical') =>
  api('POST', '/submit', auth, { subject, message, category });

describe('contact queries', () => {
  it('a user submits a query, sees it in their list and opens it', async () => {
    const { auth, user } = await signedInUser(t.app, { name: 'Grace' });
    const res = await submit(auth);
    expect(res.statusCode).toBe(201);
    const { query, message } = res.json();
    expect(message).toMatch(/sent/);
    expect(query).toMatchObject({
      subject: 'Cannot export',
      category: 'technical',
      status: 'open',
      reply_count: 0,
      last_reply_at: null,
      last_reply_role: null,
      message: 'The CSV export stops at 1000 rows.',
      user: { id: user.id, name: 'Grace', email: user.email },
      replies: [],
    });

    const list = (await api('GET', '/my-queries', auth)).json();
    expect(list).toMatchObject({ total: 1, page: 1, page_size: 20 });
    expect(list.items[0]).toEqual(expect.objectContaining({ id: query.id, subject: 'Cannot export', status: 'open', reply_count: 0 }));
    expect(list.items[0].message).toBeUndefined();
    expect((await api('GET', '/my-queries?status=answered', auth)).json().total).toBe(0);

    const detail = await api('GET', `/${query.id}`, auth);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().id).toBe(query.id);
  });

  it("another user's query answers 404 to a user, exactly like a missing one; staff see it", async () => {
    const owner = await signedInUser(t.app);
    const stranger = await signedInUser(t.app);
    const { id } = (await submit(owner.auth)).json().query;
    const missing = await api('GET', '/00000000-0000-4000-8000-000000000000', stranger.auth);
    const foreign = await api('GET', `/${id}`, stranger.auth);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(missing.json());
    expect((await api('POST', `/${id}/replies`, stranger.auth, { message: 'me too' })).statusCode).toBe(404);
    expect((await api('GET', '/my-queries', stranger.auth)).json().total).toBe(0);

    const support = await withRole('support');
    expect((await api('GET', `/${id}`, support.auth)).statusCode).toBe(200);
  });

  it('support answers: the query becomes answered, the user gets an email with a link in their language, and the user reply reopens it', async () => {
    const asker = await signedInUser(t.app, { name: 'Lin' });
    // The asker's language is Chinese: the mail is written in Chinese and links under /cn.
    await t.app.inject({ method: 'PATCH', url: '/api/v1/users/me/settings', headers: asker.auth, payload: { locale: 'cn' } });
    const { id } = (await submit(asker.auth, 'Billing <question>')).json().query;
    const support = await withRole('support', { name: 'Sam Support' });

    const answered = await api('POST', `/${id}/replies`, support.auth, { message: 'Fixed in the next release.' });
    expect(answered.statusCode).toBe(200);
    expect(answered.json()).toMatchObject({
      status: 'answered',
      reply_count: 1,
      last_reply_role: 'support',
      replies: [{ author_role: 'support', author_name: 'Sam Support', message: 'Fixed in the next release.' }],
    });

    const mails = mailsTo(t.dataDir, asker.user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(`https://stepwise.example.com/cn/contact/${id}`);
    expect(mails[0]).toContain('客服已回复你的问题“Billing <question>”');
    // In the HTML part the user's own text is escaped, never markup.
    expect(mails[0]).toContain('“Billing &lt;question&gt;”');

    // The user sees the reply in the app...
    const seen = (await api('GET', `/${id}`, asker.auth)).json();
    expect(seen.replies.map((r: { author_role: string }) => r.author_role)).toEqual(['support']);
    // ...and answering back reopens the query, without mailing anyone.
    const reopened = (await api('POST', `/${id}/replies`, asker.auth, { message: 'Thanks, one more thing.' })).json();
    expect(reopened).toMatchObject({ status: 'open', reply_count: 2, last_reply_role: 'user' });
    expect(mailsTo(t.dataDir, asker.user.email)).toHaveLength(1);
    expect(mailsTo(t.dataDir, support.user.email)).toHaveLength(0);
  });

  it('an English user gets the answer email in English with a link without /cn', async () => {
    const asker = await signedInUser(t.app);
    const { id } = (await submit(asker.auth, 'Question')).json().query;
    const admin = await withRole('admin');
    expect((await api('POST', `/${id}/replies`, admin.auth, { message: 'Answer' })).json().status).toBe('answered');
    const [mail] = mailsTo(t.dataDir, asker.user.email);
    expect(mail).toContain(`https://stepwise.example.com/contact/${id}`);
    expect(mail).toContain('Support has answered your question');
  });

  it('staff set the status; users may not', async () => {
    const asker = await signedInUser(t.app);
    const { id } = (await submit(asker.auth)).json().query;
    expect((await api('PATCH', `/${id}`, asker.auth, { status: 'closed' })).statusCode).toBe(403);
    const support = await withRole('support');
    const closed = await api('PATCH', `/${id}`, support.auth, { status: 'closed' });
    expect(closed.statusCode).toBe(200);
    expect(closed.json().status).toBe('closed');
    expect((await api('PATCH', `/${id}`, support.auth, { status: 'pending' })).statusCode).toBe(422);
    expect((await api('PATCH', '/00000000-0000-4000-8000-000000000000', support.auth, { status: 'open' })).statusCode).toBe(404);
  });

  it('the admin list filters by status and category, and searches subject, message and email case-insensitively with wildcards taken literally', async () => {
    const a = await signedInUser(t.app, { email: `zed-${Date.now()}@findme.example` });
    const b = await signedInUser(t.app);
    const first = (await submit(a.auth, 'Invoice 100% wrong', 'Please check', 'billing')).json().query;
    const second = (await submit(b.auth, 'Workflow stuck', 'It says FLUX_CAPACITOR missing', 'technical')).json().query;
    const support = await withRole('support');
    const search = async (qs: string) => {
      const res = await api('GET', `/admin/all?page_size=100&${qs}`, support.auth);
      expect(res.statusCode).toBe(200);
      return res.json().items.map((i: { id: string }) => i.id) as string[];
    };
    expect(await search('search=INVOICE')).toEqual([first.id]);
    expect(await search('search=flux_capacitor')).toEqual([second.id]);
    expect(await search('search=100%25')).toEqual([first.id]);
    // `_` and `%` match themselves only.
    expect(await search('search=flux%25capacitor')).toEqual([]);
    expect(await search(`search=${encodeURIComponent('@FINDME.example')}`)).toEqual([first.id]);
    expect(await search('category=billing&search=invoice')).toEqual([first.id]);
    expect(await search('category=technical&search=invoice')).toEqual([]);
    expect(await search('status=answered&search=invoice')).toEqual([]);

    const page = (await api('GET', '/admin/all?search=invoice', support.auth)).json();
    expect(page.items[0].user).toEqual({ id: a.user.id, name: 'Ada Lovelace', email: a.user.email });
    expect((await api('GET', '/admin/all?category=nonsense', support.auth)).statusCode).toBe(422);
  });

  it('roles: the admin list answers 401 without a token, 403 to a user, and serves support and admins', async () => {
    const user = await signedInUser(t.app);
    expect((await api('GET', '/admin/all')).statusCode).toBe(401);
    expect((await api('GET', '/admin/all', user.auth)).statusCode).toBe(403);
    expect((await api('GET', '/admin/all', (await withRole('support')).auth)).statusCode).toBe(200);
    expect((await api('GET', '/admin/all', (await withRole('admin')).auth)).statusCode).toBe(200);
    for (const [method, url] of [
      ['POST', '/submit'],
      ['GET', '/my-queries'],
      ['GET', '/00000000-0000-4000-8000-000000000000'],
      ['POST', '/00000000-0000-4000-8000-000000000000/replies'],
      ['PATCH', '/00000000-0000-4000-8000-000000000000'],
    ] as const) {
      expect([method, url, (await api(method, url, undefined, {})).statusCode]).toEqual([method, url, 401]);
    }
  });

  it(`rate limit: a user may send ${RATE} queries an hour; the next answers 429 in the error shape, other users are not affected`, async () => {
    const busy = await signedInUser(t.app);
    // Refused forms do not use up the budget.
    expect((await api('POST', '/submit', busy.auth, { subject: '', message: 'x', category: 'general' })).statusCode).toBe(422);
    for (let i = 0; i < RATE; i++) expect((await submit(busy.auth)).statusCode).toBe(201);
    const refused = await submit(busy.auth);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ detail: `You can send at most ${RATE} messages an hour. Please wait a while, or add to one of your open queries.` });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const chinese = await t.app.inject({
      method: 'POST',
      url: '/api/v1/contact/submit',
      headers: { ...busy.auth, 'accept-language': 'zh-CN' },
      payload: { subject: 's', message: 'm', category: 'general' },
    });
    expect(chinese.json().detail).toContain('每小时最多');
    expect((await submit((await signedInUser(t.app)).auth)).statusCode).toBe(201);
  });

  it('refuses bad input with 422 at the field', async () => {
    const { auth } = await signedInUser(t.app);
    const cases: [object, string][] = [
      [{ subject: 'x'.repeat(201), message: 'm', category: 'general' }, 'subject'],
      [{ subject: '   ', message: 'm', category: 'general' }, 'subject'],
      [{ subject: 's', message: 'm'.repeat(5001), category: 'general' }, 'message'],
      [{ subject: 's', message: 'm', category: 'spam' }, 'category'],
      [{ subject: 's', message: 'm', category: 'general', extra: 1 }, 'extra'],
    ];
    for (const [payload, field] of cases) {
      const res = await api('POST', '/submit', auth, payload);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.map((e: { loc: string[] }) => e.loc)).toContainEqual(['body', field]);
    }
    expect((await api('GET', '/my-queries?page_size=101', auth)).statusCode).toBe(422);
    expect((await api('GET', `/admin/all?search=${'x'.repeat(201)}`, auth)).statusCode).toBe(422);
  });
});
