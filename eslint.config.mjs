// @ts-check
// `npm run lint`: typescript-eslint's recommended rules plus the project's layer rules
// (docs/architecture.md, "Layers"). A layer rule's message says why the rule exists, so whoever
// trips it learns where the code belongs instead of looking for a way round it.
// server/src/layers.test.ts proves each layer rule still fires.
import path from 'node:path';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const routeServiceRepository =
  'route → service → repository/storage: a route calls its service, and only services reach repositories, the database and storage, so ownership checks and rules live in one place every caller goes through.';

const noAsNever = {
  selector: 'TSAsExpression > TSNeverKeyword',
  message: "`as never` silences the type checker wholesale: give the value its real type (or widen the callee's type) so a wrong value still fails to compile.",
};

// ---- what code below the routes may not import ----

const noFastify = {
  regex: '^(fastify|fastify-plugin|@fastify/.*)$',
  message:
    'Services, repositories, the engine, jobs, mail, lib and storage run outside requests too (the worker, the CLI, agents) and must not depend on Fastify: take plain values, throw errors from lib/errors.ts, log through lib/logger.ts.',
};
const noHttpLayer = {
  regex: '(^|/)(http|plugins)(/|$)',
  message:
    'server/src/http and server/src/plugins are the HTTP layer, for routes and plugins: code below the routes takes plain values (a user id, a byte range) from its route instead.',
};
const noRoutes = {
  regex: '\\.routes$',
  message:
    "A *.routes.ts is the HTTP layer: code below the routes must not reach back up into one (put what both need below, e.g. in the area's service or lib/, or in server/src/http if it speaks HTTP).",
};
const noHttpError = {
  regex: '(^|/)lib/http-error$',
  message:
    "HttpError carries a status code, which is the routes' business: throw a domain error from lib/errors.ts (notFound, conflict, invalid…) and let the error plugin map it to a status.",
};
const noHttpHelpers = {
  regex: '^\\./http-',
  message:
    "A module's http-*.ts speaks HTTP (Range, Content-Disposition): the route parses the request and hands its service plain values (e.g. a byte range), so the service works the same outside HTTP.",
};

// ---- rules that need the importing file's own place (an area, a layer) ----

const serverSrc = path.join(import.meta.dirname, 'server', 'src');
const modulesDir = path.join(serverSrc, 'modules');

/** The area (folder under server/src/modules) a server file belongs to, or null outside modules/. */
function areaOf(file) {
  const rel = path.relative(modulesDir, file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? null : rel.split(path.sep)[0];
}

const kyselyBuilders = /^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|executeQuery)$/;

const layers = {
  rules: {
    // Another area's tables are that area's business: its service decides who may see or change a
    // row, so a repository imported across areas skips those rules (and couples the two schemas).
    'no-foreign-repository': {
      meta: {
        type: 'problem',
        messages: {
          foreign:
            "The {{importer}} area may not import the {{area}} area's repository: an area's tables are reached only through that area's service (or a port: an interface the consumer declares and the composition wires), so the area's rules stay in one place.",
        },
        schema: [],
      },
      create(context) {
        const importer = areaOf(context.filename);
        if (importer === null) return {};
        const check = (node) => {
          const source = node.source?.value;
          if (typeof source !== 'string' || !source.startsWith('.')) return;
          const target = path.resolve(path.dirname(context.filename), source);
          const area = areaOf(target);
          if (area === null || area === importer || !/\.repository$/.test(path.basename(target).replace(/\.ts$/, ''))) return;
          context.report({ node: node.source, messageId: 'foreign', data: { importer, area } });
        };
        return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
      },
    },
    // The application database is spoken to in one layer, so a query is found, reviewed and
    // indexed where its table lives. (DuckDB's SQL over datasets is the engine's own: no Kysely.)
    'no-sql-outside-repositories': {
      meta: {
        type: 'problem',
        messages: {
          sql: 'Kysely queries and its `sql` tag (the application database) belong in a *.repository.ts of the area that owns the table (or server/src/db/, migrations): services and the rest call a repository method, so every query is found where its table lives.',
        },
        schema: [],
      },
      create(context) {
        return {
          ImportDeclaration(node) {
            if (node.source.value !== 'kysely' || node.importKind === 'type') return;
            const values = node.specifiers.filter((s) => s.type !== 'ImportSpecifier' || s.importKind !== 'type');
            if (values.length > 0) context.report({ node, messageId: 'sql' });
          },
          'CallExpression > MemberExpression.callee'(node) {
            if (node.property.type === 'Identifier' && kyselyBuilders.test(node.property.name)) context.report({ node: node.property, messageId: 'sql' });
          },
        };
      },
    },
  },
};

/** Tests and their helpers set up and inspect the database directly, and build the whole app. */
const testFiles = ['server/src/**/*.test.ts', 'server/src/test/**'];

export default defineConfig(
  globalIgnores(['**/node_modules/', '**/dist/', '.cache/', 'public/', 'data/', 'coverage/']),

  {
    files: ['src/**/*.{ts,tsx}', 'server/src/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // The tsconfigs already fail on unused names (noUnusedLocals/Parameters); this keeps the rule
      // in step with them: `_`-prefixed parameters and rest siblings are deliberately unused.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      'no-restricted-syntax': ['error', noAsNever],
    },
  },

  {
    files: ['server/src/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts'],
    languageOptions: { globals: globals.node },
  },

  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // One exception: the expression parser (pure, dependency-free), which the editor runs as
              // the user types so that the browser and the server judge an expression alike.
              regex: '^(\\.\\./)+server(?!/src/engine/expressions$)(/|$)',
              allowTypeImports: true,
              message:
                "The web app may only `import type` from server/ (and the expression parser, server/src/engine/expressions): the server's schemas are the one source of API shapes, but server code (database drivers, Node modules) must never end up in the browser bundle.",
            },
          ],
        },
      ],
    },
  },

  // Type-aware, where it pays: on the server, in its tests, the journeys and the benchmarks, a
  // promise nobody awaits is an unhandled rejection (which stops Node) or a test that cannot fail.
  // Not on the web app, where React event handlers and react-router's navigate() return promises
  // by design, and a second TypeScript program would double the time for little.
  {
    files: ['server/src/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts'],
    languageOptions: { parserOptions: { project: './server/tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },

  // Below the routes (services, repositories, engine, jobs, lib, mail, storage, ai, the worker, the
  // CLI and every other module file): nothing of Fastify or HTTP. The HTTP layer is the routes,
  // http/, plugins/, a module's http-*.ts helpers, lib/http-error.ts (what routes and plugins
  // throw), and app.ts/server.ts, which assemble it.
  ...[
    { files: ['server/src/modules/**/*.ts'], patterns: [noFastify, noHttpLayer, noRoutes, noHttpError, noHttpHelpers] },
    { files: ['server/src/**/*.ts'], ignores: ['server/src/modules/**'], patterns: [noFastify, noHttpLayer, noRoutes, noHttpError] },
  ].map(({ files, ignores = [], patterns }) => ({
    files,
    ignores: [
      ...ignores,
      ...testFiles,
      'server/src/modules/**/*.routes.ts',
      'server/src/modules/**/*.schemas.ts',
      'server/src/modules/**/http-*.ts',
      'server/src/http/**',
      'server/src/plugins/**',
      'server/src/lib/http-error.ts',
      'server/src/app.ts',
      'server/src/server.ts',
    ],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
  })),

  // Every server file: another area's tables only through its service (for the areas under
  // modules/; jobs/ and plugins/ are not areas and sweep or authenticate over them); the application database
  // only in repositories, db/ and migrations.
  {
    files: ['server/src/**/*.ts'],
    ignores: testFiles,
    plugins: { layers },
    rules: { 'layers/no-foreign-repository': 'error' },
  },
  {
    files: ['server/src/**/*.ts'],
    ignores: [...testFiles, 'server/src/**/*.repository.ts', 'server/src/db/**'],
    plugins: { layers },
    rules: { 'layers/no-sql-outside-repositories': 'error' },
  },

  // Routes call their service and nothing below it.
  {
    files: ['server/src/modules/**/*.routes.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)([^/]+\\.repository|db/.+|storage(/.+)?)$', allowTypeImports: true, message: routeServiceRepository }] },
      ],
      'no-restricted-syntax': [
        'error',
        noAsNever,
        {
          // `app.db` / `app.storage` handed to a function, or queried directly. Handing them to a
          // service's constructor (`new XService(app.db)`, `{ db: app.db }`) is what routes do.
          selector: [
            'CallExpression > MemberExpression.arguments[object.name="app"][property.name=/^(db|storage)$/]',
            'MemberExpression[object.type="MemberExpression"][object.object.name="app"][object.property.name=/^(db|storage)$/]',
          ].join(', '),
          message: routeServiceRepository,
        },
      ],
    },
  },
);
