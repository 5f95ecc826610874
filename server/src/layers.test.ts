import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

// The layer rules of eslint.config.mjs (docs/architecture.md, "Layers") are only worth something
// while they fire. Each case lints a few lines as if they were a file at `path` and expects the
// rule's message, so a pattern that stops matching (a renamed folder, a typo in a regex) fails here
// instead of silently letting every import through.

const root = path.resolve(__dirname, '../..');

interface Case {
  path: string;
  code: string;
}
interface Finding {
  ruleId: string | null;
  message: string;
}

/**
 * ESLint loads its flat config with import(), which Jest's module sandbox cannot do, so the real
 * `eslint` runs in a child Node. Type-aware parsing is switched off: these files do not exist, and
 * the layer rules look at syntax only.
 */
async function lint(cases: Case[]): Promise<Finding[][]> {
  const script = `
    const path = require('node:path');
    const { ESLint } = require('eslint');
    (async () => {
      const eslint = new ESLint({
        cwd: process.cwd(),
        overrideConfig: {
          languageOptions: { parserOptions: { project: null, projectService: false } },
          rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
        },
      });
      const out = [];
      for (const c of JSON.parse(process.argv[1])) {
        const [result] = await eslint.lintText(c.code, { filePath: path.join(process.cwd(), c.path) });
        out.push(result.messages.map((m) => ({ ruleId: m.ruleId, message: m.message })));
      }
      process.stdout.write(JSON.stringify(out));
    })().catch((err) => { console.error(err); process.exit(1); });
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script, JSON.stringify(cases)], { cwd: root, maxBuffer: 10 * 1024 * 1024 });
  return JSON.parse(stdout) as Finding[][];
}

const messages = (findings: Finding[]) => findings.map((f) => `${f.ruleId}: ${f.message}`);

describe('layer rules (npm run lint)', () => {
  // Over Jest’s 5 s: each case starts ESLint with the project's config in a child Node (1–2 s each).
  jest.setTimeout(30_000);

  it('lets the web app import only types from server/', async () => {
    const [value, typeOnly, inlineTypes, ownTestServer] = await lint([
      { path: 'src/features/x/X.ts', code: "import { stepTypes } from '../../../server/src/engine/step-types';\nexport const all = stepTypes;\n" },
      {
        path: 'src/features/x/X.ts',
        code: "import type { StepInfoOut } from '../../../server/src/modules/step-infos/step-infos.schemas';\nexport type Info = StepInfoOut;\n",
      },
      {
        path: 'src/features/x/X.ts',
        code: "import { type StepInfoOut } from '../../../server/src/modules/step-infos/step-infos.schemas';\nexport type Info = StepInfoOut;\n",
      },
      { path: 'src/features/x/X.test.ts', code: "import { server } from '../../test/server';\nexport const s = server;\n" },
    ]);
    expect(messages(value)).toEqual([expect.stringMatching(/^@typescript-eslint\/no-restricted-imports: .*may only `import type` from server\//)]);
    expect(typeOnly).toEqual([]);
    expect(inlineTypes).toEqual([]);
    expect(ownTestServer).toEqual([]);
  });

  const below = [
    'server/src/modules/x/x.service.ts',
    'server/src/modules/x/x.repository.ts',
    'server/src/modules/x/x.ts',
    'server/src/ai/x.ts',
    'server/src/cli/x.ts',
    'server/src/worker.ts',
    'server/src/engine/x.ts',
    'server/src/engine/step-types/x.ts',
    'server/src/jobs/x.ts',
    'server/src/mail/x.ts',
    'server/src/lib/x.ts',
    'server/src/storage/x.ts',
  ];

  it('keeps Fastify, the HTTP layer, routes and HttpError out of every file below the routes', async () => {
    const imports = [
      {
        code: "import { agentTurnLimit } from '../conversations/conversations.routes';\nexport const l = agentTurnLimit;\n",
        why: /A \*\.routes\.ts is the HTTP layer/,
      },
      { code: "import type { FastifyRequest } from 'fastify';\nexport type R = FastifyRequest;\n", why: /must not depend on Fastify/ },
      { code: "import multipart from '@fastify/multipart';\nexport const m = multipart;\n", why: /must not depend on Fastify/ },
      { code: "import fp from 'fastify-plugin';\nexport const p = fp;\n", why: /must not depend on Fastify/ },
      { code: "import type { AuthUser } from '../../plugins/authentication';\nexport type U = AuthUser;\n", why: /the HTTP layer/ },
      { code: "import { StringEnum } from '../../http/common.schemas';\nexport const e = StringEnum;\n", why: /the HTTP layer/ },
      { code: "import { HttpError } from '../../lib/http-error';\nexport const e = HttpError;\n", why: /HttpError carries a status code/ },
    ];
    const cases = below.flatMap((file) => imports.map((i) => ({ path: file, code: i.code })));
    const results = await lint(cases);
    results.forEach((findings, n) => {
      const { why } = imports[n % imports.length];
      expect([cases[n].path, messages(findings)]).toEqual([cases[n].path, [expect.stringMatching(why)]]);
    });
  });

  it('lets the HTTP layer (routes, schemas, http/, plugins, app.ts) use HTTP code', async () => {
    const code =
      "import { Id } from '../../http/common.schemas';\nimport type { FastifyReply } from 'fastify';\nexport const i = Id;\nexport type R = FastifyReply;\n";
    const results = await lint(
      [
        'server/src/modules/x/x.routes.ts',
        'server/src/modules/x/x.schemas.ts',
        'server/src/modules/x/http-x.ts',
        'server/src/http/x.ts',
        'server/src/plugins/x.ts',
        'server/src/app.ts',
        'server/src/modules/x/x.test.ts',
      ].map((file) => ({ path: file, code })),
    );
    for (const findings of results) expect(findings).toEqual([]);
  });

  it("keeps one area out of another area's repositories", async () => {
    const why = /may not import the files area's repository/;
    const [service, helper, typeOnly, reExport, deep, ownArea, nested, otherService, test] = await lint([
      {
        path: 'server/src/modules/clone/clone.service.ts',
        code: "import { FilesRepository } from '../files/files.repository';\nexport const R = FilesRepository;\n",
      },
      {
        path: 'server/src/modules/runs/user-files.ts',
        code: "import { FoldersRepository } from '../files/folders.repository';\nexport const R = FoldersRepository;\n",
      },
      { path: 'server/src/modules/steps/steps.service.ts', code: "import type { FileRow } from '../files/files.repository';\nexport type R = FileRow;\n" },
      { path: 'server/src/modules/usage/usage.service.ts', code: "export { FilesRepository } from '../files/files.repository';\n" },
      {
        path: 'server/src/modules/step-infos/embeddings/x.ts',
        code: "import { FilesRepository } from '../../files/files.repository';\nexport const R = FilesRepository;\n",
      },
      { path: 'server/src/modules/files/files.service.ts', code: "import { FilesRepository } from './files.repository';\nexport const R = FilesRepository;\n" },
      {
        path: 'server/src/modules/step-infos/embeddings/x.ts',
        code: "import { StepInfosRepository } from '../step-infos.repository';\nexport const R = StepInfosRepository;\n",
      },
      {
        path: 'server/src/modules/clone/clone.service.ts',
        code: "import { FileLookupsService } from '../files/file-lookups.service';\nexport const S = FileLookupsService;\n",
      },
      {
        path: 'server/src/modules/clone/clone.test.ts',
        code: "import { FilesRepository } from '../files/files.repository';\nexport const R = FilesRepository;\n",
      },
    ]);
    for (const findings of [service, helper, typeOnly, reExport, deep])
      expect(messages(findings)).toEqual([expect.stringMatching(new RegExp(`^layers/no-foreign-repository: .*${why.source}`))]);
    for (const findings of [ownArea, nested, otherService, test]) expect(findings).toEqual([]);
  });

  it('keeps Kysely and its sql tag (the application database) in repositories, db/ and migrations', async () => {
    const query = "import type { Db } from '../../db/database';\nexport const q = (db: Db) => db.selectFrom('users').selectAll().execute();\n";
    const tag = "import { sql } from 'kysely';\nexport const s = sql`select 1`;\n";
    const writes = [
      "import type { Db } from '../../db/database';\nexport const q = (db: Db) => db.insertInto('users').values([]).execute();\n",
      "import type { Db } from '../../db/database';\nexport const q = (db: Db) => db.updateTable('users').set({ name: 'x' }).execute();\n",
      "import type { Db } from '../../db/database';\nexport const q = (db: Db) => db.deleteFrom('users').execute();\n",
    ];
    const outside = [
      'server/src/modules/x/x.service.ts',
      'server/src/modules/runs/x.ts',
      'server/src/modules/usage/ledger.ts',
      'server/src/jobs/x.ts',
      'server/src/engine/x.ts',
      'server/src/plugins/x.ts',
      'server/src/modules/x/x.routes.ts',
    ];
    const inside = [
      'server/src/modules/x/x.repository.ts',
      'server/src/db/x.ts',
      'server/src/db/migrations/099_x.ts',
      'server/src/modules/x/x.test.ts',
      'server/src/test/x.ts',
    ];
    const cases = [
      ...outside.flatMap((file) => [query, tag, ...writes].map((code) => ({ path: file, code }))),
      ...inside.flatMap((file) => [query, tag].map((code) => ({ path: file, code }))),
      {
        path: 'server/src/modules/x/x.service.ts',
        code: "import type { Kysely } from 'kysely';\nimport { type Selectable } from 'kysely';\nexport type K = Kysely<object> | Selectable<object>;\n",
      },
    ];
    const results = await lint(cases);
    const why = /^layers\/no-sql-outside-repositories: Kysely queries and its `sql` tag/;
    results.forEach((findings, n) => {
      const flagged = n < outside.length * (2 + writes.length);
      expect([cases[n].path, messages(findings).filter((m) => why.test(m)).length]).toEqual([cases[n].path, flagged ? 1 : 0]);
    });
  });

  it('keeps Range and Content-Disposition parsing (http-*.ts) in routes, out of services', async () => {
    const [service, route] = await lint([
      { path: 'server/src/modules/files/x.service.ts', code: "import { parseRange } from './http-download';\nexport const p = parseRange;\n" },
      { path: 'server/src/modules/files/x.routes.ts', code: "import { parseRange } from './http-download';\nexport const p = parseRange;\n" },
    ]);
    expect(messages(service)).toEqual([expect.stringMatching(/http-\*\.ts speaks HTTP/)]);
    expect(route).toEqual([]);
  });

  it('lets lib/http-error.ts and plugins be the HTTP code they are', async () => {
    const [httpError, plugin] = await lint([
      { path: 'server/src/lib/http-error.ts', code: "import type { FastifyReply } from 'fastify';\nexport type R = FastifyReply;\n" },
      { path: 'server/src/plugins/x.ts', code: "import fp from 'fastify-plugin';\nexport default fp(async () => {});\n" },
    ]);
    expect(httpError).toEqual([]);
    expect(plugin).toEqual([]);
  });

  it('makes routes go through their service', async () => {
    const head = "import type { FastifyPluginAsync } from 'fastify';\n";
    const [helper, query, repository, storage, wiring] = await lint([
      {
        path: 'server/src/modules/x/x.routes.ts',
        code: `${head}import { zip } from './zip';\nconst r: FastifyPluginAsync = async (app) => { await zip(app.db, app.storage); };\nexport default r;\n`,
      },
      {
        path: 'server/src/modules/x/x.routes.ts',
        code: `${head}const r: FastifyPluginAsync = async (app) => { await app.db.selectFrom('users').selectAll().execute(); };\nexport default r;\n`,
      },
      { path: 'server/src/modules/x/x.routes.ts', code: "import { FilesRepository } from '../files/files.repository';\nexport const R = FilesRepository;\n" },
      { path: 'server/src/modules/x/x.routes.ts', code: "import { fileKey } from '../../storage';\nexport const k = fileKey;\n" },
      {
        path: 'server/src/modules/x/x.routes.ts',
        code: `${head}import { XService } from './x.service';\nconst r: FastifyPluginAsync = async (app) => { const x = new XService({ db: app.db, storage: app.storage }); app.get('/', async () => x.list()); };\nexport default r;\n`,
      },
    ]);
    const why = expect.stringMatching(/route → service → repository\/storage/);
    expect(messages(helper)).toEqual([why, why]);
    // The query is refused twice over: by this rule, and as SQL outside a repository.
    expect(messages(query)).toEqual([why, expect.stringMatching(/^layers\/no-sql-outside-repositories: /)]);
    // Another area's repository is refused twice over too: routes use no repository, areas no other area's.
    expect(messages(repository)).toEqual([why, expect.stringMatching(/^layers\/no-foreign-repository: /)]);
    expect(messages(storage)).toEqual([why]);
    expect(wiring).toEqual([]);
  });

  it('refuses `as never` anywhere', async () => {
    const results = await lint(
      ['src/features/x/X.test.tsx', 'server/src/modules/x/x.routes.ts', 'server/src/modules/x/x.test.ts', 'e2e/x.e2e.ts', 'bench/x.ts'].map((file) => ({
        path: file,
        code: 'export const x = 1 as never;\n',
      })),
    );
    for (const findings of results) expect(messages(findings)).toEqual([expect.stringMatching(/^no-restricted-syntax: `as never`/)]);
  });
});
