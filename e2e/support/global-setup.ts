import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromiumPath } from './browser';

/**
 * Before any journey: check that Chromium is installed and build the web app the journeys load,
 * into a folder of their own so a developer's `dist/` is left alone.
 */
export default async function globalSetup() {
  if (!fs.existsSync(chromiumPath)) {
    throw new Error(`Chromium is missing at ${chromiumPath}. Install it with: apt-get install -y chromium`);
  }
  const root = path.resolve(__dirname, '../..');
  // Inside this checkout (not node_modules, which several checkouts of the project may share).
  const outDir = path.join(root, '.cache', 'e2e-web');
  execFileSync(
    process.execPath,
    [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
      // Jest sets NODE_ENV=test, which would make Vite build React's development bundle: the
      // journeys test (and first-load.e2e.ts measures) what production serves.
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  process.env.E2E_WEB_DIR = outDir;
}
