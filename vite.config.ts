import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from '@formatjs/icu-messageformat-parser';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { catalogPart, type CatalogPart } from './src/i18n/catalogParts';

// In development Vite serves the app and forwards the API to the server (npm run dev).
const apiTarget = process.env.VITE_API_PROXY ?? `http://127.0.0.1:${process.env.PORT ?? 8000}`;

/**
 * The catalogs in i18n/ also hold the server's texts (`server.*` keys: error messages, emails).
 * The browser never shows those, so they are dropped from the JSON the web app imports. The rest
 * is imported in two parts, `i18n/<lang>.json?texts=first` (the sign-in page and the frame around
 * every page) and `?texts=rest` (every other page): src/i18n/catalogParts.ts says which key goes
 * where. The messages are parsed here, at build time, into the ICU syntax trees react-intl
 * formats from, so the browser needs no message parser (resolve.alias below leaves it out).
 */
function webCatalogs(): Plugin {
  return {
    name: 'stepwise:web-catalogs',
    enforce: 'pre',
    transform(code, id) {
      const match = /[\\/]i18n[\\/]([^\\/]+)\.json\?texts=(first|rest)$/.exec(id);
      if (!match) return null;
      const locale = new Intl.Locale(match[1]);
      const texts = catalogPart(JSON.parse(code) as Record<string, string>, match[2] as CatalogPart);
      const parsed = Object.entries(texts).map(([key, message]) => [key, parse(message, { locale })]);
      // A module of our own: with the query, Vite no longer takes the file for JSON. JSON.parse of
      // one string starts faster than the same object as a JavaScript literal.
      return { code: `export default JSON.parse(${JSON.stringify(JSON.stringify(Object.fromEntries(parsed)))});`, map: null, moduleType: 'js' };
    },
  };
}

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every compressible file of the build, once,
 * at the highest levels: the server sends them as they are (@fastify/static `preCompressed`)
 * instead of compressing on every request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'stepwise:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
          const full = path.join(dir, entry.name);
          return entry.isDirectory() ? walk(full) : [full];
        });
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const bytes = fs.readFileSync(file);
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
        );
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [webCatalogs(), react(), precompress()],
  resolve: {
    // Messages arrive parsed (webCatalogs): the ICU parser's 27 kB stay out of the bundle.
    alias: [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/no-parser.js' }],
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  // No source maps in the build: it is served as is, and they would publish the source.
  build: {
    outDir: 'dist',
    rolldownOptions: {
      // Chakra's theme module builds its full default config (all ~80 recipes) at the top level
      // through `defineConfig`, an identity function the bundler cannot see is pure: every recipe
      // then rode in the first download though theme/system.ts picks a few (issue 10, first load).
      treeshake: { manualPureFunctions: ['defineConfig', 'defineRecipe', 'defineSlotRecipe'] },
    },
  },
});
