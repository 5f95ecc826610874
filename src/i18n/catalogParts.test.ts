import fs from 'node:fs';
import path from 'node:path';
import en from '../../i18n/en.json';
import { catalogPart, catalogPartOf, FIRST_LOAD_PREFIXES } from './catalogParts';

// The first download holds only the texts of the sign-in pages and the frame around every page;
// a key those files use from any other part would show raw until the rest arrives.

const src = path.resolve(__dirname, '..');
// The files that render before lazyPage has brought the rest: the auth pages and what they use,
// the not-found page, and what every page renders around itself (App, notices, spinner, routes).
const firstPartFiles = [
  'features/auth',
  'components/NotFoundPage.tsx',
  'components/NoAccessPage.tsx',
  'components/PageSpinner.tsx',
  'components/AuthLayout.tsx',
  'components/LanguageSwitcher.tsx',
  'components/Logo.tsx',
  'features/notices/Toaster.tsx',
  'features/notices/describeResponse.ts',
  'features/notices/fieldLabels.ts',
  'app/areas.ts',
  'app/usePageTitle.ts',
];

function sourceFiles(entry: string): string[] {
  const full = path.join(src, entry);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [full];
  return fs
    .readdirSync(full)
    .flatMap((name) => sourceFiles(path.join(entry, name)))
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file));
}

describe('catalog parts', () => {
  it('put every web key in one part and leave the server-only texts out', () => {
    expect(catalogPartOf('auth.login.submit')).toBe('first');
    expect(catalogPartOf('workflows.title')).toBe('rest');
    expect(catalogPartOf('server.expressions.unknownFunction')).toBe('rest');
    expect(catalogPartOf('server.auth.invalidCredentials')).toBeNull();
    const first = catalogPart(en as Record<string, string>, 'first');
    const rest = catalogPart(en as Record<string, string>, 'rest');
    expect(Object.keys(first).length).toBeGreaterThan(50);
    expect(Object.keys(first).length).toBeLessThan(Object.keys(rest).length / 5);
    expect(Object.keys(first).filter((key) => key in rest)).toEqual([]);
  });

  it('hold in the first part every key the first-download files name', () => {
    const keys = new Set(Object.keys(en));
    const outside: string[] = [];
    for (const file of firstPartFiles.flatMap(sourceFiles)) {
      for (const [, key] of fs.readFileSync(file, 'utf8').matchAll(/['"`]([a-zA-Z]+\.[\w.]+)['"`]/g)) {
        if (keys.has(key) && catalogPartOf(key) !== 'first') outside.push(`${path.relative(src, file)}: ${key}`);
      }
    }
    expect(outside).toEqual([]);
    expect(FIRST_LOAD_PREFIXES).toContain('auth');
  });
});
