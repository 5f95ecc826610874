import path from 'node:path';
import { loadConfig } from '../config/config';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { ROLES, setUserRole } from '../modules/users/set-role';
import type { Role } from '../modules/users/users.schemas';

/**
 *   npm run user:role -- EMAIL ROLE      (ROLE: user | support | admin)
 * Works on the database the server is configured for (DATABASE_URL, or SQLite in DATA_DIR).
 */
async function main(argv: string[]): Promise<number> {
  const [email, role] = argv;
  if (!email || !ROLES.includes(role as Role)) {
    console.error(`usage: npm run user:role -- EMAIL ${ROLES.join('|')}`);
    return 2;
  }
  const config = loadConfig();
  const handle = openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'stepwise.db') });
  try {
    await migrateToLatest(handle.db, handle.dialect);
    if (!(await setUserRole(handle.db, email, role as Role))) {
      console.error(`No account with the email ${email}.`);
      return 1;
    }
    console.log(`${email} is now ${role}.`);
    return 0;
  } finally {
    await handle.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
