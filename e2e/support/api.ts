import { randomBytes } from 'node:crypto';

// Calls to the running server from Node, for arranging a journey (an account that already
// exists) and for checking what the server holds afterwards. Plain fetch, no cookies: requests
// without the XSRF cookie are API clients, which the anti-forgery check lets through.

export interface Account {
  name: string;
  email: string;
  password: string;
}

/** A unique account per call, so journeys never share users. */
export function newAccount(overrides: Partial<Account> = {}): Account {
  return {
    name: 'Ada Lovelace',
    email: `e2e-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}@example.com`,
    password: 'correct horse battery',
    ...overrides,
  };
}

async function expectStatus(res: Response, status: number, what: string): Promise<unknown> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`${what}: expected HTTP ${status}, got ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

export async function signUpViaApi(baseUrl: string, account: Account = newAccount()): Promise<Account> {
  const res = await fetch(`${baseUrl}/api/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  await expectStatus(res, 201, `sign-up of ${account.email}`);
  return account;
}

/** Answers the bearer token, as the web app's sign-in would get it. */
export async function logInViaApi(baseUrl: string, account: Pick<Account, 'email' | 'password'>): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: account.email, password: account.password }).toString(),
  });
  const body = (await expectStatus(res, 200, `sign-in of ${account.email}`)) as { access_token: string };
  return body.access_token;
}

/** GET with a bearer token; answers the status and the parsed body (null when not JSON). */
export async function getWithToken(baseUrl: string, pathname: string, token: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${baseUrl}${pathname}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: res.status, body };
}

/**
 * Sends a JSON (or multipart, for a FormData) request with a bearer token, as the app would in
 * `language`, and answers the parsed body; anything but 2xx throws with the server's answer.
 */
export async function sendWithToken(
  baseUrl: string,
  token: string,
  method: string,
  pathname: string,
  body?: unknown,
  language: 'en' | 'cn' = 'en',
): Promise<Record<string, unknown>> {
  const multipart = body instanceof FormData;
  const res = await fetch(`${baseUrl}${pathname}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      // The server names new steps and words its messages in the request's language.
      'accept-language': language === 'cn' ? 'zh-CN' : 'en',
      ...(multipart || body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: multipart ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${pathname} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}
