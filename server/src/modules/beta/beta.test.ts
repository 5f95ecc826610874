import { buildApp } from '../../app';
import { mailsTo } from '../../test/outbox';
import { createTestApp, newAccount, signedInUser, type TestApp } from '../../test/test-app';
import { setUserRole } from '../users/set-role';
import { CODE_ALPHABET, newCodeText, normalizeCode } from './invitation-code-text';

type Auth = { authorization: string };
type Method = 'GET' | 'POST';

async function withRole(t: TestApp, role: 'support' | 'admin') {
  const who = await signedInUser(t.app);
  await setUserRole(t.app.db, who.account.email, role);
  return who;
}

const beta = (t: TestApp, method: Method, url: string, headers?: Auth, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/beta-interest${url}`, headers, payload });

const makeCodes = async (t: TestApp, admin: Auth, body: object) => {
  const res = await beta(t, 'POST', '/admin/invitation-codes', admin, body);
  expect(res.statusCode).toBe(201);
  return res.json().items as { id: string; code: string; state: string; uses: number; max_uses: number }[];
};

const signup = (t: TestApp, extra: object = {}) => t.app.inject({ method: 'POST', url: '/api/v1/auth/signup', payload: { ...newAccount(), ...extra } });

describe('invitation code text', () => {
  it('looks like STEP-XXXX-XXXX from the unambiguous alphabet, and typing is forgiving', () => {
    const codes = new Set(Array.from({ length: 200 }, newCodeText));
    expect(codes.size).toBe(200);
    for (const code of codes) expect(code).toMatch(new RegExp(`^STEP-[${CODE_ALPHABET}]{4}-[${CODE_ALPHABET}]{4}$`));
    expect(CODE_ALPHABET).not.toMatch(/[01OIL]/);
    expect(normalizeCode(' step-7k2m - q9xd ')).toBe('STEP-7K2M-Q9XD');
  });
});

describe('beta programme (sign-up open)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://stepwise.example.com' });
  });
  afterAll(() => t.close());

  it('signup-mode is public and says sign-up is open', async () => {
    const res = await beta(t, 'GET', '/signup-mode');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ invite_only: false });
  });

  it('a user asks to join; asking again updates the request; beta-status follows', async () => {
    const { auth } = await signedInUser(t.app);
    const status = async () => (await t.app.inject({ url: '/api/v1/users/me/beta-status', headers: auth })).json();
    expect(await status()).toEqual({ has_access: true, invite_only: false, status: 'none', requested_at: null });

    const first = await beta(t, 'POST', '/request', auth, { use_case: 'Cleaning CRM exports', company: 'Acme' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ status: 'pending', message: 'Thank you: your request to join the beta has been received.' });
    const again = await beta(t, 'POST', '/request', auth, { use_case: 'Enriching leads', heard_from: 'A friend' });
    expect(again.json()).toEqual({ status: 'pending', message: 'Your request to join the beta has been updated.' });

    const after = await status();
    expect(after).toMatchObject({ has_access: true, invite_only: false, status: 'requested' });
    expect(typeof after.requested_at).toBe('string');

    const admin = await withRole(t, 'admin');
    const list = (await beta(t, 'GET', '/admin/requests?status=pending&page_size=200', admin.auth)).json();
    const mine = list.items.filter((r: { use_case: string }) => r.use_case === 'Enriching leads');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ company: null, heard_from: 'A friend', status: 'pending' });
    expect(list.items.some((r: { use_case: string }) => r.use_case === 'Cleaning CRM exports')).toBe(false);
  });

  it('admins make codes with uses, expiry and note; the list shows their state and who used them', async () => {
    const admin = await withRole(t, 'admin');
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const made = await makeCodes(t, admin.auth, { count: 3, max_uses: 2, expires_at: expires, note: 'Conference' });
    expect(made).toHaveLength(3);
    expect(new Set(made.map((c) => c.code)).size).toBe(3);
    expect(made[0]).toMatchObject({
      max_uses: 2,
      uses: 0,
      state: 'active',
      note: 'Conference',
      expires_at: expires,
      created_by_name: 'Ada Lovelace',
      uses_by: [],
    });

    // A code given at sign-up is recorded even when sign-up is open, and typed in any case.
    const account = newAccount({ name: 'Hedy' });
    const joined = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signup', payload: { ...account, invitation_code: made[0].code.toLowerCase() } });
    expect(joined.statusCode).toBe(201);
    const listed = (await beta(t, 'GET', '/admin/invitation-codes?page_size=200', admin.auth)).json();
    const used = listed.items.find((c: { id: string }) => c.id === made[0].id);
    expect(used).toMatchObject({ uses: 1, state: 'active', uses_by: [{ name: 'Hedy', email: account.email }] });

    const revoked = await beta(t, 'POST', `/admin/invitation-codes/${made[1].id}/revoke`, admin.auth);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({ id: made[1].id, state: 'revoked' });
    const revokedList = (await beta(t, 'GET', '/admin/invitation-codes?state=revoked', admin.auth)).json();
    expect(revokedList.items.map((c: { id: string }) => c.id)).toEqual([made[1].id]);
    const active = (await beta(t, 'GET', '/admin/invitation-codes?state=active&page_size=200', admin.auth)).json();
    expect(active.items.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining([made[0].id, made[2].id]));
    expect(active.items.map((c: { id: string }) => c.id)).not.toContain(made[1].id);
    expect((await beta(t, 'POST', '/admin/invitation-codes/00000000-0000-4000-8000-000000000000/revoke', admin.auth)).statusCode).toBe(404);
  });

  it('refuses bad code requests with 422 at the field', async () => {
    const admin = await withRole(t, 'admin');
    const cases: [object, string][] = [
      [{ count: 0, max_uses: 1 }, 'count'],
      [{ count: 101, max_uses: 1 }, 'count'],
      [{ count: 1, max_uses: 10_001 }, 'max_uses'],
      [{ count: 1, max_uses: 1, expires_at: 'tomorrow' }, 'expires_at'],
      [{ count: 1, max_uses: 1, expires_at: '2001-01-01T00:00:00Z' }, 'expires_at'],
      [{ count: 1, max_uses: 1, expires_at: '2099-13-01T00:00:00Z' }, 'expires_at'],
      [{ count: 1, max_uses: 1, expires_at: '+275760-09-13T00:00:00Z' }, 'expires_at'],
      [{ count: 1, max_uses: 1, note: 'n'.repeat(501) }, 'note'],
    ];
    for (const [payload, field] of cases) {
      const res = await beta(t, 'POST', '/admin/invitation-codes', admin.auth, payload);
      expect([field, res.statusCode]).toEqual([field, 422]);
      expect(res.json().errors.map((e: { loc: string[] }) => e.loc)).toContainEqual(['body', field]);
    }
    expect((await beta(t, 'GET', '/admin/invitation-codes?state=lost', admin.auth)).statusCode).toBe(422);
    const { auth } = await signedInUser(t.app);
    expect((await beta(t, 'POST', '/request', auth, { use_case: ' ' })).statusCode).toBe(422);
    expect((await beta(t, 'POST', '/request', auth, { use_case: 'x', company: 'c'.repeat(201) })).statusCode).toBe(422);
  });

  it('inviting a request makes a one-use code, emails it in the asker’s language and marks the request invited', async () => {
    const asker = await signedInUser(t.app, { name: 'Mei' });
    await t.app.inject({ method: 'PATCH', url: '/api/v1/users/me/settings', headers: asker.auth, payload: { locale: 'cn' } });
    await beta(t, 'POST', '/request', asker.auth, { use_case: 'Research' });
    const admin = await withRole(t, 'admin');
    const request = (await beta(t, 'GET', '/admin/requests?page_size=200', admin.auth))
      .json()
      .items.find((r: { user: { id: string } }) => r.user.id === asker.user.id);

    const res = await beta(t, 'POST', `/admin/requests/${request.id}/invite`, admin.auth);
    expect(res.statusCode).toBe(200);
    const { code, request: invited, message } = res.json();
    expect(invited.status).toBe('invited');
    expect(code).toMatchObject({ max_uses: 1, uses: 0, state: 'active' });
    expect(message).toContain(asker.user.email);
    const mails = mailsTo(t.dataDir, asker.user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(code.code);
    expect(mails[0]).toContain('https://stepwise.example.com/cn/beta');
    expect(mails[0]).toContain('你受邀参加 Stepwise 测试计划');

    expect((await t.app.inject({ url: '/api/v1/users/me/beta-status', headers: asker.auth })).json().status).toBe('invited');
    // The invited account joins with the code, once.
    const joined = await beta(t, 'POST', '/redeem', asker.auth, { invitation_code: code.code });
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toMatchObject({ has_access: true, status: 'member' });
    expect((await beta(t, 'POST', '/redeem', asker.auth, { invitation_code: code.code })).statusCode).toBe(409);
    expect((await beta(t, 'POST', `/admin/requests/00000000-0000-4000-8000-000000000000/invite`, admin.auth)).statusCode).toBe(404);
  });

  it('roles: every admin call answers 401 without a token, 403 to users and support, and serves admins', async () => {
    const user = await signedInUser(t.app);
    const support = await withRole(t, 'support');
    const admin = await withRole(t, 'admin');
    const [code] = await makeCodes(t, admin.auth, { count: 1, max_uses: 1 });
    await beta(t, 'POST', '/request', user.auth, { use_case: 'Roles' });
    const requestId = (await beta(t, 'GET', '/admin/requests?page_size=200', admin.auth))
      .json()
      .items.find((r: { user: { id: string } }) => r.user.id === user.user.id).id;
    const calls: [Method, string, object | undefined][] = [
      ['POST', '/admin/invitation-codes', { count: 1, max_uses: 1 }],
      ['GET', '/admin/invitation-codes', undefined],
      ['POST', `/admin/invitation-codes/${code.id}/revoke`, undefined],
      ['GET', '/admin/requests', undefined],
      ['POST', `/admin/requests/${requestId}/invite`, undefined],
    ];
    for (const [method, url, body] of calls) {
      const statuses = [
        (await beta(t, method, url, undefined, body)).statusCode,
        (await beta(t, method, url, user.auth, body)).statusCode,
        (await beta(t, method, url, support.auth, body)).statusCode,
        (await beta(t, method, url, admin.auth, body)).statusCode,
      ];
      expect([method, url, statuses]).toEqual([method, url, [401, 403, 403, method === 'POST' && url.endsWith('invitation-codes') ? 201 : 200]]);
    }
    // The spec's request is a secure call; visitors ask through /visitor-request (the invite-only tests).
    expect((await beta(t, 'POST', '/request', { authorization: 'Bearer not-a-token' }, { use_case: 'x' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/beta-interest/request', payload: { email: 'v@example.com', use_case: 'x' } })).statusCode).toBe(
      401,
    );
    expect((await t.app.inject({ url: '/api/v1/users/me/beta-status' })).statusCode).toBe(401);
  });
});

describe('beta programme (invite-only)', () => {
  let t: TestApp;
  let admin: Auth;
  const adminEmail = `first-admin-${Date.now()}@example.com`;
  beforeAll(async () => {
    t = await createTestApp({ BETA_INVITE_ONLY: 'true', ADMIN_EMAILS: adminEmail });
    // The first admin needs no code: someone has to make the first ones.
    admin = (await signedInUser(t.app, { email: adminEmail })).auth;
  });
  afterAll(() => t.close());

  const refusal = async (extra: object) => {
    const res = await signup(t, extra);
    expect(res.statusCode).toBe(422);
    const [error] = res.json().errors;
    expect(error.loc).toEqual(['body', 'invitation_code']);
    return error.msg as string;
  };

  it('signup-mode says invite-only', async () => {
    expect((await beta(t, 'GET', '/signup-mode')).json()).toEqual({ invite_only: true });
  });

  it('sign-up needs an active code: missing, unknown, used up, expired and revoked codes are refused with clear texts', async () => {
    expect(await refusal({})).toMatch(/needs an invitation code/);
    expect(await refusal({ invitation_code: '   ' })).toMatch(/needs an invitation code/);
    expect(await refusal({ invitation_code: 'STEP-AAAA-AAAA' })).toMatch(/no such invitation code/);

    const [once] = await makeCodes(t, admin, { count: 1, max_uses: 1 });
    const member = newAccount();
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/signup', payload: { ...member, invitation_code: once.code } })).statusCode).toBe(201);
    expect(await refusal({ invitation_code: once.code })).toMatch(/already been used/);

    const [revoked] = await makeCodes(t, admin, { count: 1, max_uses: 5 });
    await beta(t, 'POST', `/admin/invitation-codes/${revoked.id}/revoke`, admin);
    expect(await refusal({ invitation_code: revoked.code })).toMatch(/withdrawn/);

    // A code whose expiry has passed (the API only takes future expiries, so the clock is moved in the row).
    const [shortLived] = await makeCodes(t, admin, { count: 1, max_uses: 5, expires_at: new Date(Date.now() + 3_600_000).toISOString() });
    await t.app.db
      .updateTable('invitation_codes')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', shortLived.id)
      .execute();
    expect(await refusal({ invitation_code: shortLived.code })).toMatch(/expired/);
    const expiredList = (await beta(t, 'GET', '/admin/invitation-codes?state=expired', admin)).json();
    expect(expiredList.items.map((c: { id: string }) => c.id)).toEqual([shortLived.id]);
    const usedUp = (await beta(t, 'GET', '/admin/invitation-codes?state=used_up', admin)).json();
    expect(usedUp.items.map((c: { id: string }) => c.id)).toEqual([once.id]);

    // No account was made for any refused sign-up.
    const codes = (await beta(t, 'GET', '/admin/invitation-codes?page_size=200', admin)).json().items;
    expect(codes.reduce((n: number, c: { uses: number }) => n + c.uses, 0)).toBe(1);

    // A member has access; the status says so.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ username: member.email, password: member.password }).toString(),
    });
    const status = await t.app.inject({ url: '/api/v1/users/me/beta-status', headers: { authorization: `Bearer ${login.json().access_token}` } });
    expect(status.json()).toEqual({ has_access: true, invite_only: true, status: 'member', requested_at: null });
  });

  it('refusals are in the caller’s language', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signup', headers: { 'accept-language': 'zh-CN' }, payload: newAccount() });
    expect(res.json().errors[0].msg).toContain('邀请码');
  });

  it('two sign-ups racing for the last use of a code: exactly one account is made', async () => {
    const [code] = await makeCodes(t, admin, { count: 1, max_uses: 1 });
    const [a, b] = await Promise.all([signup(t, { invitation_code: code.code }), signup(t, { invitation_code: code.code })]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 422]);
    const loser = a.statusCode === 422 ? a : b;
    expect(loser.json().errors[0]).toMatchObject({ loc: ['body', 'invitation_code'], msg: expect.stringMatching(/already been used/) });
    const listed = (await beta(t, 'GET', '/admin/invitation-codes?page_size=200', admin)).json().items.find((c: { id: string }) => c.id === code.id);
    expect(listed).toMatchObject({ uses: 1, state: 'used_up' });
    expect(listed.uses_by).toHaveLength(1);
  });

  it.each([
    [1, 5],
    [3, 6],
  ])('a code of %i use(s) raced for by %i sign-ups makes exactly that many accounts', async (maxUses, racers) => {
    const [code] = await makeCodes(t, admin, { count: 1, max_uses: maxUses });
    const results = await Promise.all(Array.from({ length: racers }, () => signup(t, { invitation_code: code.code })));
    expect(results.map((r) => r.statusCode).filter((s) => s === 201)).toHaveLength(maxUses);
    expect(results.map((r) => r.statusCode).filter((s) => s === 422)).toHaveLength(racers - maxUses);
  });

  it('an account made before invite-only mode has no access until it joins with a code; staff always have access', async () => {
    expect((await t.app.inject({ url: '/api/v1/users/me/beta-status', headers: admin })).json()).toMatchObject({ has_access: true, status: 'none' });
    // The same database, served while sign-up was still open.
    const open = await buildApp({ ...t.appOptions, config: { ...t.config, beta: { inviteOnly: false } } });
    let early: Auth;
    try {
      early = (await signedInUser(open)).auth;
    } finally {
      await open.close();
    }
    const status = async () => (await t.app.inject({ url: '/api/v1/users/me/beta-status', headers: early })).json();
    expect(await status()).toEqual({ has_access: false, invite_only: true, status: 'none', requested_at: null });
    const [code] = await makeCodes(t, admin, { count: 1, max_uses: 1 });
    expect((await beta(t, 'POST', '/redeem', early, { invitation_code: 'STEP-ZZZZ-ZZZZ' })).statusCode).toBe(422);
    expect((await beta(t, 'POST', '/redeem', early, { invitation_code: code.code })).json()).toEqual({
      has_access: true,
      invite_only: true,
      status: 'member',
      requested_at: null,
    });
    expect(await status()).toMatchObject({ has_access: true, status: 'member' });
  });

  describe('a visitor without an account asks for a code', () => {
    const visitorRequest = (payload: object, headers: Record<string, string> = {}, remoteAddress = '203.0.113.7') =>
      t.app.inject({ method: 'POST', url: '/api/v1/beta-interest/visitor-request', headers, payload, remoteAddress });
    const requestsOf = async (email: string) =>
      (await beta(t, 'GET', '/admin/requests?page_size=200', admin)).json().items.filter((r: { user: { email: string } }) => r.user.email === email);

    it('with an email and no token; the admin sees it, invites it, and the emailed link signs up with the code', async () => {
      const email = `visitor-${Date.now()}@example.com`;
      const res = await visitorRequest({ email: email.toUpperCase(), name: ' Vera ', use_case: 'Cleaning survey data', company: 'Acme' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'pending', message: 'Thank you: your request to join the beta has been received.' });

      const [request] = await requestsOf(email);
      expect(request).toMatchObject({ user: { id: null, name: 'Vera', email }, use_case: 'Cleaning survey data', company: 'Acme', status: 'pending' });

      const invited = await beta(t, 'POST', `/admin/requests/${request.id}/invite`, admin);
      expect(invited.statusCode).toBe(200);
      const { code } = invited.json();
      const [mail] = mailsTo(t.dataDir, email);
      expect(mail).toContain(`/signup?code=${code.code}`);
      expect(mail).toContain('Hello Vera,');

      const account = { ...newAccount(), email };
      const signedUp = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signup', payload: { ...account, invitation_code: code.code } });
      expect(signedUp.statusCode).toBe(201);
    });

    it('asking again with the same email changes nothing and is answered the same', async () => {
      const email = `again-${Date.now()}@example.com`;
      const first = await visitorRequest({ email, use_case: 'The first words' });
      const second = await visitorRequest({ email, use_case: 'Someone else typing this email' });
      expect(second.json()).toEqual(first.json());
      const requests = await requestsOf(email);
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatchObject({ use_case: 'The first words', user: { name: null } });
    });

    it('is written to in the language it asked in', async () => {
      const email = `zh-${Date.now()}@example.com`;
      const res = await visitorRequest({ email, use_case: '研究' }, { 'accept-language': 'zh-CN' });
      expect(res.json().message).toBe('谢谢！我们已收到你加入测试计划的申请。');
      const [request] = await requestsOf(email);
      await beta(t, 'POST', `/admin/requests/${request.id}/invite`, admin);
      const [mail] = mailsTo(t.dataDir, email);
      expect(mail).toContain('/cn/signup?code=');
      expect(mail).toContain('朋友，你好');
    });

    it('refuses a missing or malformed email and over-long fields with 422 at the field, never 500', async () => {
      const fieldOf = async (payload: object) => {
        const res = await visitorRequest(payload);
        expect(res.statusCode).toBe(422);
        return res.json().errors.map((e: { loc: unknown[] }) => e.loc);
      };
      const missing = await visitorRequest({ use_case: 'No email' });
      expect(missing.statusCode).toBe(422);
      expect(missing.json()).toEqual({ errors: [{ msg: 'Enter your email address: the invitation code is sent there.', loc: ['body', 'email'] }] });
      expect(await fieldOf({ email: 'not an email', use_case: 'x' })).toContainEqual(['body', 'email']);
      expect(await fieldOf({ email: `${'a'.repeat(250)}@example.com`, use_case: 'x' })).toContainEqual(['body', 'email']);
      expect(await fieldOf({ email: 'ok@example.com', name: 'n'.repeat(101), use_case: 'x' })).toContainEqual(['body', 'name']);
      expect(await fieldOf({ email: 'ok@example.com', use_case: 'u'.repeat(2001) })).toContainEqual(['body', 'use_case']);
      expect(await fieldOf({ email: 'ok@example.com', use_case: '   ' })).toContainEqual(['body', 'use_case']);
      expect(await fieldOf({ email: 'ok@example.com', use_case: 'x', role: 'admin' })).toContainEqual(['body', 'role']);
    });

    it('a signed-in user’s request stays theirs: the email in the body is not used', async () => {
      const res = await beta(t, 'POST', '/request', admin, { email: 'someone-else@example.com', use_case: 'Mine' });
      expect(res.statusCode).toBe(200);
      const mine = await requestsOf(adminEmail);
      expect(mine).toHaveLength(1);
      expect(mine[0].user.id).toEqual(expect.any(String));
      expect(await requestsOf('someone-else@example.com')).toHaveLength(0);
    });

    it('is limited per client address', async () => {
      const address = '198.51.100.23';
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) statuses.push((await visitorRequest({ email: `flood-${i}@example.com`, use_case: 'x' }, {}, address)).statusCode);
      expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
      expect(statuses[20]).toBe(429);
      expect((await visitorRequest({ email: 'other-address@example.com', use_case: 'x' }, {}, '198.51.100.24')).statusCode).toBe(200);
    });
  });
});
