import type { Response } from 'playwright-core';
import en from '../i18n/en.json';
import { useE2E } from './support/stack';

// Issue 7, "First load": what a visitor downloads to see the sign-in page. Before: one 1.24 MB
// script (362 KB gzipped, 301 KB brotli), sent uncompressed, with every page, both languages and
// the server's texts. After lazy pages, on-demand Chinese, catalogs parsed at build time, a
// trimmed Chakra system and brotli: 175 KB transferred (200 KB if gzipped). The aim, a third of 362 KB gzipped (121 KB), is
// not reached: React DOM (~60 KB gz), Chakra (~45 KB), RTK Query, react-router and react-intl are
// most of what is left. The budget holds what was reached, so the first page cannot grow back.
// Issue 11 (credits, payments, support, beta, videos: eight screens, ~270 English texts, which
// travel in the first download with the rest of the English catalog) took it from 181.6 KB to
// 188.3 KB, and the budget with it, on purpose. Issue 10 part D won it back: only the sign-in
// pages' and the frame's texts are in the first download (src/i18n/catalogParts.ts), the rest
// comes with the first other page; the Lucide icons and Chakra's unused recipes left the first
// chunk too: 170.9 KB (196.1 KB gzipped). The aim of that issue, 120 KB gzipped, is not reached
// either (docs/benchmarks.md, "What is left").

/** Bytes of script the sign-in page may transfer (brotli, as Chromium receives it; headers excluded). */
export const LOGIN_SCRIPT_BUDGET = 172_000;

const e2e = useE2E();

interface Script {
  path: string;
  encoding: string | undefined;
  transferred: number;
  text: string;
}

async function scriptsOfFirstVisit(path: string, ready: (page: import('playwright-core').Page) => Promise<void>): Promise<Script[]> {
  const page = await e2e.newPage();
  const responses: Response[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') responses.push(response);
  });
  await page.goto(path);
  await ready(page);
  await page.waitForLoadState('networkidle');
  return Promise.all(
    responses.map(async (response) => ({
      path: new URL(response.url()).pathname,
      encoding: (await response.allHeaders())['content-encoding'],
      transferred: (await response.request().sizes()).responseBodySize,
      text: await response.text(),
    })),
  );
}

describe('first load', () => {
  e2e.test('the sign-in page transfers at most its budget of compressed script', async () => {
    const scripts = await scriptsOfFirstVisit('/login', (page) => page.getByRole('heading', { name: 'Welcome back', exact: true }).waitFor());
    const total = scripts.reduce((sum, script) => sum + script.transferred, 0);
    const report = scripts
      .sort((a, b) => b.transferred - a.transferred)
      .map((s) => `${s.transferred}\t${s.encoding ?? 'identity'}\t${s.path}`)
      .join('\n');
    process.stdout.write(`sign-in page: ${scripts.length} scripts, ${total} bytes transferred\n${report}\n`);

    expect(scripts.length).toBeGreaterThan(0);
    // Precompressed by the build, sent as brotli (Chromium accepts it).
    for (const script of scripts.filter((s) => s.path.startsWith('/assets/'))) expect([script.path, script.encoding]).toEqual([script.path, 'br']);
    expect(total).toBeLessThanOrEqual(LOGIN_SCRIPT_BUDGET);
  });

  e2e.test('the sign-in page loads neither the server texts, the Chinese catalog, nor source maps', async () => {
    const scripts = await scriptsOfFirstVisit('/login', (page) => page.getByRole('heading', { name: 'Welcome back', exact: true }).waitFor());
    const containing = (needle: string) => scripts.filter((s) => s.text.includes(needle)).map((s) => s.path);
    expect(containing('server.errors.')).toEqual([]);
    expect(containing('忘记密码')).toEqual([]);
    expect(containing('sourceMappingURL=')).toEqual([]);
    const map = await fetch(`${e2e.baseUrl}${scripts.find((s) => s.path.startsWith('/assets/'))!.path}.map`);
    expect(map.status).toBe(404);
  });

  e2e.test('the sign-in page carries only the texts of the first part: its own and the frame around it', async () => {
    const scripts = await scriptsOfFirstVisit('/login', (page) => page.getByRole('heading', { name: 'Welcome back', exact: true }).waitFor());
    const containing = (needle: string) => scripts.filter((s) => s.text.includes(needle)).map((s) => s.path);
    expect(containing(en['auth.login.forgot']).length).toBeGreaterThan(0);
    // A landing page text and a workflows text (plain texts: the build keeps them verbatim).
    expect(containing(en['landing.feature.agents.title'])).toEqual([]);
    expect(containing(en['workflows.field.tagsHelp'])).toEqual([]);
  });

  e2e.test('a Chinese page fetches the Chinese catalog, still without the server texts', async () => {
    const scripts = await scriptsOfFirstVisit('/cn/login', (page) => page.getByRole('heading', { name: '欢迎回来', exact: true }).waitFor());
    const containing = (needle: string) => scripts.filter((s) => s.text.includes(needle)).map((s) => s.path);
    expect(containing('忘记密码').length).toBeGreaterThan(0);
    expect(containing('server.errors.')).toEqual([]);
  });
});
