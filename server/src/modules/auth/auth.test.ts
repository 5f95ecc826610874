import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { createTestApp, logIn, newAccount, signedInUser, signUp, type TestApp } from '../../test/test-app';

describe('auth', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: 'boss@example.com' });
  });
  afterAll(() => t.close());

  describe('POST /auth/signup', () => {
    it('creates an account and never returns the password', async () => {
      const account = newAccount({ email: 'Grace@Example.COM', name: 'Grace Hopper' });
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signup', payload: account });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body.user).toMatchObject({ email: 'grace@example.com', name: 'Grace Hopper', role: 'user', locale: 'en' });
      expect(typeof body.user.id).toBe('string');
      expect(body.message).toBe('Your account is ready. Welcome to Stepwise!');
      expect(res.body).not.toMatch(/password|argon2/i);
    });

    it('refuses an email already used, whatever its case, with a clear 409', async () => {
      const { account } = await signUp(t.app);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/signup',
        payload: { ...account, email: account.email.toUpperCase() },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ detail: 'An account with this email already exists.' });
    });

    it('answers 422 with every problem located in the body', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/signup',
        payload: { email: 'not-an-email', password: 'short', colour: 'blue' },
      });
      expect(res.statusCode).toBe(422);
      const { errors } = res.json();
      expect(errors).toEqual(
        expect.arrayContaining([
          { msg: 'Must be a valid email address', loc: ['body', 'email'] },
          { msg: 'Must be at least 8 characters', loc: ['body', 'password'] },
          { msg: 'Field required', loc: ['body', 'name'] },
          { msg: 'Unknown field', loc: ['body', 'colour'] },
        ]),
      );
    });

    it('speaks Chinese to a Chinese client and remembers the language', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/signup',
        headers: { 'accept-language': 'zh-CN,zh;q=0.9' },
        payload: newAccount(),
      });
      expect(res.json().message).toBe('账号已创建，欢迎使用 Stepwise！');
      expect(res.json().user.locale).toBe('cn');
      const bad = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/signup',
        headers: { 'accept-language': 'zh-CN' },
        payload: { ...newAccount(), name: '   ' },
      });
      expect(bad.json().errors).toEqual([{ msg: '不能只填空格', loc: ['body', 'name'] }]);
    });

    it('refuses passwords that are long enough but easy to guess, saying why under the password', async () => {
      const signup = (payload: object, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url: '/api/v1/auth/signup', headers, payload });
      const account = newAccount({ email: 'charles.babbage@example.com', name: 'Charles Babbage' });
      const refusals = {
        '12345678': 'This password is too easy to guess: it is one of the ten most used passwords. Add another word or two; uncommon words work best.',
        '        ':
          'This password is too easy to guess: it repeats one character, like "aaa". Add another word or two; uncommon words work best. Leave out repeated words and characters.',
        'charles.babbage@example.com':
          'This password is too easy to guess: it contains your email, your name or the name of this site. Add another word or two; uncommon words work best.',
        CharlesBabbage1:
          'This password is too easy to guess: it contains your email, your name or the name of this site. Add another word or two; uncommon words work best.',
        stepwise2024: expect.stringMatching(/^This password is too easy to guess: it contains your email, your name or the name of this site\./),
        'P@ssw0rd!': expect.stringMatching(/^This password is too easy to guess/),
      };
      for (const [password, msg] of Object.entries(refusals)) {
        const res = await signup({ ...account, password });
        expect([password, res.statusCode, res.json()]).toEqual([password, 422, { errors: [{ msg, loc: ['body', 'password'] }] }]);
      }
      const chinese = await signup({ ...account, password: '12345678' }, { 'accept-language': 'zh-CN' });
      expect(chinese.json().errors).toEqual([
        { msg: '这个密码太容易被猜到：它是最常用的十个密码之一。再加一两个词，不常见的词最好。', loc: ['body', 'password'] },
      ]);
      // Nothing was created, and a passphrase of uncommon words is welcome.
      expect((await signup({ ...account, password: 'analytical engine punch cards' })).statusCode).toBe(201);
    });

    it('makes the people in ADMIN_EMAILS admins', async () => {
      const { user } = await signUp(t.app, newAccount({ email: 'Boss@example.com' }));
      expect(user.role).toBe('admin');
    });
  });

  describe('POST /auth/login', () => {
    it('takes a form-encoded username and password and answers a bearer token', async () => {
      const { account } = await signUp(t.app);
      const res = await logIn(t.app, account.email.toUpperCase(), account.password);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.token_type).toBe('bearer');
      expect(body.access_token).toMatch(/^[\w-]{43}$/); // 256 bits, base64url
      expect(body.expires_in).toBe(7 * 24 * 3600);
      const me = await t.app.inject({ url: '/api/v1/users/me', headers: { authorization: `Bearer ${body.access_token}` } });
      expect(me.json().email).toBe(account.email);
    });

    it('does not tell a wrong password from an unknown email', async () => {
      const { account } = await signUp(t.app);
      const wrongPassword = await logIn(t.app, account.email, 'not the password');
      const unknownEmail = await logIn(t.app, 'nobody@example.com', account.password);
      expect(wrongPassword.statusCode).toBe(401);
      expect(unknownEmail.statusCode).toBe(401);
      expect(wrongPassword.json()).toEqual({ detail: 'Incorrect email or password.' });
      expect(unknownEmail.json()).toEqual(wrongPassword.json());
    });

    it('answers 422 when a field is missing', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'username=a%40b.c',
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual([{ msg: 'Field required', loc: ['body', 'password'] }]);
    });

    it('stores only a hash of the token', async () => {
      const { token } = await signedInUser(t.app);
      const rows = await t.app.db.selectFrom('sessions').select('token_hash').execute();
      expect(rows.some((r) => r.token_hash === token)).toBe(false);
      expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
    });
  });

  describe('POST /auth/logout', () => {
    it('revokes the token on the server', async () => {
      const { auth } = await signedInUser(t.app);
      const out = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: auth });
      expect(out.statusCode).toBe(200);
      expect(out.json().message).toBe('You have been signed out.');
      const after = await t.app.inject({ url: '/api/v1/users/me', headers: auth });
      expect(after.statusCode).toBe(401);
      expect(after.json().detail).toMatch(/sign in again/);
    });

    it('ends only that session', async () => {
      const { account, auth } = await signedInUser(t.app);
      const second = await logIn(t.app, account.email, account.password);
      await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: auth });
      const me = await t.app.inject({ url: '/api/v1/users/me', headers: { authorization: `Bearer ${second.json().access_token}` } });
      expect(me.statusCode).toBe(200);
    });
  });
});

describe('login rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT_MAX: '3' });
  });
  afterAll(() => t.close());

  it('stops a client guessing one account, but not that client on another account', async () => {
    const { account } = await signUp(t.app);
    for (let i = 0; i < 3; i++) expect((await logIn(t.app, account.email, `wrong ${i}`)).statusCode).toBe(401);
    const blocked = await logIn(t.app, account.email, account.password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ detail: 'Too many attempts. Please wait a few minutes and try again.' });
    const other = await signUp(t.app);
    expect((await logIn(t.app, other.account.email, other.account.password)).statusCode).toBe(200);
  });
});

describe('login rate limit per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT_MAX: '3', LOGIN_RATE_LIMIT_PER_ADDRESS_MAX: '5' });
  });
  afterAll(() => t.close());

  it('stops one address trying a password on many accounts, each under its own limit', async () => {
    const { account } = await signUp(t.app);
    for (let i = 0; i < 5; i++) expect((await logIn(t.app, `victim${i}@example.com`, 'Winter2024!')).statusCode).toBe(401);
    const blocked = await logIn(t.app, account.email, account.password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ detail: 'Too many attempts. Please wait a few minutes and try again.' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);

    // Another client address has its own budget.
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: '203.0.113.7',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ username: account.email, password: account.password }).toString(),
    });
    expect(elsewhere.statusCode).toBe(200);
  });
});

describe('password reset over SMTP', () => {
  let t: TestApp;
  let smtp: SMTPServer;
  const inbox: { to: string; raw: string }[] = [];

  beforeAll(async () => {
    // A real SMTP server on loopback: the app talks the real protocol through nodemailer.
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
        stream.on('end', () => {
          inbox.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, PUBLIC_URL: 'https://stepwise.test' });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  const waitForMail = async (to: string) => {
    for (let i = 0; i < 100; i++) {
      const mail = inbox.find((m) => m.to === to);
      if (mail) return mail;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no mail for ${to}`);
  };
  const tokenIn = (raw: string) => {
    const unfolded = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    return /reset-password\?token=([\w-]+)/.exec(unfolded)![1];
  };
  const requestReset = (email: string) => t.app.inject({ method: 'POST', url: '/api/v1/auth/password-reset-request', payload: { email } });
  const reset = (token: string, new_password: string) => t.app.inject({ method: 'POST', url: '/api/v1/auth/reset-password', payload: { token, new_password } });

  it('answers the same whether or not the account exists, and mails only real accounts', async () => {
    const { account } = await signUp(t.app);
    const known = await requestReset(account.email);
    const unknown = await requestReset('ghost@example.com');
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(unknown.json()).toEqual(known.json());
    await waitForMail(account.email);
    // Every message the two requests asked for has reached the SMTP server or failed.
    await t.app.mailer.settled();
    expect(inbox.find((m) => m.to === 'ghost@example.com')).toBeUndefined();
  });

  it('sets a new password with the emailed link, once, and ends every session', async () => {
    const { account, auth } = await signedInUser(t.app);
    await requestReset(account.email);
    const mail = await waitForMail(account.email);
    expect(mail.raw).toContain('https://stepwise.test/reset-password?token=');
    const token = tokenIn(mail.raw);

    const ok = await reset(token, 'a brand new secret');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe('Your password has been changed. Please sign in with the new one.');

    expect((await t.app.inject({ url: '/api/v1/users/me', headers: auth })).statusCode).toBe(401);
    expect((await logIn(t.app, account.email, account.password)).statusCode).toBe(401);
    expect((await logIn(t.app, account.email, 'a brand new secret')).statusCode).toBe(200);

    const again = await reset(token, 'yet another secret');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ detail: 'This reset link is invalid or has expired. Please request a new one.' });
  });

  it('refuses an easily guessed new password without spending the link', async () => {
    const { account } = await signUp(t.app, newAccount({ name: 'Mary Somerville' }));
    await requestReset(account.email);
    const token = tokenIn((await waitForMail(account.email)).raw);

    const weak = await reset(token, 'somerville1');
    expect(weak.statusCode).toBe(422);
    expect(weak.json()).toEqual({
      errors: [
        {
          msg: 'This password is too easy to guess: it contains your email, your name or the name of this site. Add another word or two; uncommon words work best.',
          loc: ['body', 'new_password'],
        },
      ],
    });
    const weakInChinese = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      headers: { 'accept-language': 'zh-CN' },
      payload: { token, new_password: 'qwertyuiop' },
    });
    expect(weakInChinese.json().errors[0].msg).toBe('这个密码太容易被猜到：它是最常用的一百个密码之一。再加一两个词，不常见的词最好。');
    expect((await logIn(t.app, account.email, account.password)).statusCode).toBe(200);

    expect((await reset(token, 'mechanism of the heavens')).statusCode).toBe(200);
    expect((await logIn(t.app, account.email, 'mechanism of the heavens')).statusCode).toBe(200);
  });

  it('refuses a made-up token and a short password', async () => {
    expect((await reset('made-up', 'long enough password')).statusCode).toBe(400);
    const short = await reset('made-up', 'short');
    expect(short.statusCode).toBe(422);
    expect(short.json().errors).toEqual([{ msg: 'Must be at least 8 characters', loc: ['body', 'new_password'] }]);
  });
});

describe('password reset without SMTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PASSWORD_RESET_TTL_MINUTES: '0' });
  });
  afterAll(() => t.close());

  it('writes the email to DATA_DIR/outbox, and an expired link is refused', async () => {
    const { account } = await signUp(t.app);
    await t.app.inject({ method: 'POST', url: '/api/v1/auth/password-reset-request', payload: { email: account.email } });
    const outbox = path.join(t.dataDir, 'outbox');
    let files: string[] = [];
    for (let i = 0; i < 100 && files.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      files = fs.existsSync(outbox) ? fs.readdirSync(outbox) : [];
    }
    expect(files).toHaveLength(1);
    const raw = fs.readFileSync(path.join(outbox, files[0]), 'utf8');
    expect(raw).toContain(`To: ${account.email}`);
    const token = /token=([\w-]+)/.exec(raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='))![1];
    // PASSWORD_RESET_TTL_MINUTES=0: the link was already dead when it was sent.
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/reset-password', payload: { token, new_password: 'whatever it is' } });
    expect(res.statusCode).toBe(400);
  });
});
