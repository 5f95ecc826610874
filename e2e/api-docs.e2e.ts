import { useE2E } from './support/stack';

// The Swagger UI at /api/docs has a Content-Security-Policy of its own (plugins/security-headers.ts):
// it must still render the API's document. e2e.test fails on any CSP violation.

const e2e = useE2E();

describe('API docs', () => {
  e2e.test('the Swagger UI shows the API under its Content-Security-Policy', async () => {
    const page = await e2e.newPage();
    const response = await page.goto('/api/docs');
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByRole('heading', { name: /Stepwise API/ }).waitFor();
    await page.getByText('/api/v1/auth/login', { exact: true }).first().waitFor();
  });
});
