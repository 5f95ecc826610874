import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';

describe('users', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET /users/me answers the signed-in user', async () => {
    const { auth, account, user } = await signedInUser(t.app, { name: 'Katherine Johnson' });
    const res = await t.app.inject({ url: '/api/v1/users/me', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: user.id,
      email: account.email,
      name: 'Katherine Johnson',
      role: 'user',
      locale: 'en',
      theme: 'system',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('GET and PATCH /users/me/settings read and change only the given fields', async () => {
    const { auth } = await signedInUser(t.app, { name: 'Dorothy' });
    expect((await t.app.inject({ url: '/api/v1/users/me/settings', headers: auth })).json()).toEqual({
      display_name: 'Dorothy',
      locale: 'en',
      theme: 'system',
      ai_model: null,
    });

    const patched = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/me/settings',
      headers: auth,
      payload: { locale: 'cn', theme: 'dark' },
    });
    expect(patched.statusCode).toBe(200);
    // Confirmed in the language just chosen.
    expect(patched.json()).toEqual({ display_name: 'Dorothy', locale: 'cn', theme: 'dark', ai_model: null, message: '设置已保存。' });

    await t.app.inject({ method: 'PATCH', url: '/api/v1/users/me/settings', headers: auth, payload: { display_name: '  Dorothy Vaughan ' } });
    const me = (await t.app.inject({ url: '/api/v1/users/me', headers: auth })).json();
    expect(me).toMatchObject({ name: 'Dorothy Vaughan', locale: 'cn', theme: 'dark' });
  });

  it('refuses unknown fields, bad values and an empty change with located 422s', async () => {
    const { auth } = await signedInUser(t.app);
    const patch = (payload: unknown) => t.app.inject({ method: 'PATCH', url: '/api/v1/users/me/settings', headers: auth, payload: payload as object });

    const unknown = await patch({ locale: 'en', is_admin: true });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toEqual({ errors: [{ msg: 'Unknown field', loc: ['body', 'is_admin'] }] });

    const bad = await patch({ locale: 'fr', theme: 'neon', display_name: '' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual(
      expect.arrayContaining([
        { msg: 'Must be one of: en, cn', loc: ['body', 'locale'] },
        { msg: 'Must be one of: light, dark, system', loc: ['body', 'theme'] },
        { msg: 'Must not be empty', loc: ['body', 'display_name'] },
      ]),
    );

    const empty = await patch({});
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toEqual({ errors: [{ msg: 'Give at least one field to change', loc: ['body'] }] });

    const me = (await t.app.inject({ url: '/api/v1/users/me', headers: auth })).json();
    expect(me).toMatchObject({ locale: 'en', theme: 'system' });
  });

  it('GET /users/me/beta-status: with sign-up open everyone has access (invite-only mode: modules/beta)', async () => {
    const { auth } = await signedInUser(t.app);
    const res = await t.app.inject({ url: '/api/v1/users/me/beta-status', headers: auth });
    expect(res.json()).toEqual({ has_access: true, invite_only: false, status: 'none', requested_at: null });
  });

  it('each user sees only their own account', async () => {
    const alice = await signedInUser(t.app, { name: 'Alice' });
    const bob = await signedInUser(t.app, { name: 'Bob' });
    await t.app.inject({ method: 'PATCH', url: '/api/v1/users/me/settings', headers: bob.auth, payload: { display_name: 'Robert' } });
    expect((await t.app.inject({ url: '/api/v1/users/me', headers: alice.auth })).json().name).toBe('Alice');
    expect((await t.app.inject({ url: '/api/v1/users/me', headers: bob.auth })).json().name).toBe('Robert');
  });
});
