import { randomBytes } from 'node:crypto';

/** A signed-in account talking to a running server over HTTP, as the benches drive it. */
export class ApiClient {
  constructor(
    readonly base: string,
    readonly token: string,
  ) {}

  /** Signs a fresh account up and in; answers a client of the class it is called on. */
  static async signUp<T extends typeof ApiClient>(this: T, base: string, name: string): Promise<InstanceType<T>> {
    const account = { email: `${name}-${randomBytes(4).toString('hex')}@example.com`, password: `Bench ${randomBytes(12).toString('base64url')}`, name };
    const signup = await fetch(`${base}/api/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(account),
    });
    if (!signup.ok) throw new Error(`signup: ${signup.status} ${await signup.text()}`);
    const login = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: account.email, password: account.password }).toString(),
    });
    if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
    return new this(base, ((await login.json()) as { access_token: string }).access_token) as InstanceType<T>;
  }

  get auth() {
    return { authorization: `Bearer ${this.token}` };
  }

  async call<T>(method: string, url: string, body?: object): Promise<T> {
    const res = await fetch(`${this.base}/api/v1${url}`, {
      method,
      headers: { ...this.auth, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }
}
