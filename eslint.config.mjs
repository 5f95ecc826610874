// @ts-check
// `npm run lint`: typescript-eslint's recommended rules plus the project's layer rules
// (docs/architecture.md, "Layers"). A layer rule's message says why the rule exists, so whoever
// trips it learns where the code belongs instead of looking for a way round it.
// server/src/lint.test.ts proves each layer rule still fires.
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

  // Below the routes: nothing of Fastify or HTTP. (lib/http-error.ts is the one piece of HTTP in
  // lib/: it is what routes and plugins throw.)
  {
    files: [
      'server/src/ai/**/*.ts',
      'server/src/engine/**/*.ts',
      'server/src/jobs/**/*.ts',
      'server/src/mail/**/*.ts',
      'server/src/lib/**/*.ts',
      'server/src/storage/**/*.ts',
    ],
    ignores: ['server/src/lib/http-error.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noFastify, noHttpLayer, noHttpError] }] },
  },
  {
    files: ['server/src/modules/**/*.service.ts', 'server/src/modules/**/*.repository.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noFastify, noHttpLayer, noHttpError, noHttpHelpers] }] },
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
