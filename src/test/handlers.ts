import { http, HttpResponse } from 'msw';
import type { SettingsOut, UserOut } from '../../server/src/modules/users/users.schemas';

// The API as the tests' default world sees it: a signed-in user with English settings. Tests
// override single calls with server.use(...).

export const API = 'http://localhost/api/v1';

export const api = (path: string) => `${API}${path}`;

export const testUser: UserOut = {
  id: 'u-1',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  role: 'user',
  locale: 'en',
  theme: 'light',
  created_at: '2026-03-14T10:00:00.000Z',
};

export const testSettings: SettingsOut = { display_name: 'Ada Lovelace', locale: 'en', theme: 'light', ai_model: null };

export const handlers = [
  http.get(api('/users/me'), () => HttpResponse.json(testUser)),
  http.get(api('/users/me/settings'), () => HttpResponse.json(testSettings)),
  http.post(api('/auth/logout'), () => HttpResponse.json({ message: 'Signed out.' })),
  // Sign-up is open to everyone (no invitation code needed) unless a test says otherwise.
  http.get(api('/beta-interest/signup-mode'), () => HttpResponse.json({ invite_only: false })),
  // Workflows have not been run: the editor's run panel and history are empty.
  http.get(api('/workflow-runs/'), ({ request }) => {
    const query = new URL(request.url).searchParams;
    return HttpResponse.json({ items: [], total: 0, page: Number(query.get('page') ?? 1), page_size: Number(query.get('page_size') ?? 20) });
  }),
  // ...so no step has data yet: the editor's data panel says how to get some.
  http.get(api('/workflow-steps/:stepId/output-dataset'), () =>
    HttpResponse.json({ detail: 'There is no output yet: run this step or preview it first.' }, { status: 404 }),
  ),
  http.get(api('/workflow-steps/:stepId/input-dataset'), () =>
    HttpResponse.json({ detail: 'There is no input dataset yet: run the steps before this one first.' }, { status: 404 }),
  ),
  // No workflows yet (the dashboard's recent workflows); tests with workflows answer this call themselves.
  http.get(api('/workflows'), ({ request }) => {
    const query = new URL(request.url).searchParams;
    return HttpResponse.json({ items: [], total: 0, page: Number(query.get('page') ?? 1), page_size: Number(query.get('page_size') ?? 50) });
  }),
  // A server without billing (self-hosted): no balance in the user menu, no cost beside the run
  // controls. Billing tests answer these calls themselves (features/usage/billingFixtures.ts).
  http.get(api('/balance/'), () => HttpResponse.json({ balance: 0, billing_enabled: false, paused_runs: 0 })),
  http.get(api('/workflows/:workflowId/cost-estimate'), () =>
    HttpResponse.json({ credits: 0, unknown: false, balance: 0, enough: true, billing_enabled: false, lines: [] }),
  ),
];

/** The signed-in account speaks this language: since issue 8 the account's language wins over the URL's. */
export const accountIn = (locale: UserOut['locale']) => http.get(api('/users/me'), () => HttpResponse.json({ ...testUser, locale }));
