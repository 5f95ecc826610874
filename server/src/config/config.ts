import path from 'node:path';

/**
 * Every setting the server reads from the environment, in one place. The README's configuration
 * table lists the same names; `loadConfig` is the only reader of `process.env` in server code.
 */
export interface Config {
  port: number;
  host: string;
  /** Where the embedded defaults keep their files: the SQLite database, storage, outbox. */
  dataDir: string;
  /** PostgreSQL connection string; when absent, SQLite in `dataDir`. */
  databaseUrl: string | null;
  /** Redis connection string; shared rate limits now, the job queue from the run engine on. */
  redisUrl: string | null;
  /** Absolute origin used in links we send by email, e.g. https://stepwise.example.com */
  publicUrl: string;
  /** Folder with the built React app (`vite build`); not served when missing. */
  webDir: string;
  logLevel: string;
  sessionTtlHours: number;
  passwordResetTtlMinutes: number;
  loginRateLimit: { max: number; windowMs: number };
  smtpUrl: string | null;
  mailFrom: string;
  adminEmails: Set<string>;
  /** Run background jobs (housekeeping now, step runs later) inside the API process. */
  inProcessWorker: boolean;
  /** Trust X-Forwarded-* from a proxy in front of us (rate limits key on the client address). */
  trustProxy: boolean;
}

const int = (value: string | undefined, fallback: number, name: string): number => {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${value}"`);
  return n;
};

const bool = (value: string | undefined, fallback: boolean): boolean =>
  value === undefined || value === '' ? fallback : ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const port = int(env.PORT, 8000, 'PORT');
  const root = path.resolve(__dirname, '../../..');
  const config: Config = {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || path.join(root, 'data')),
    databaseUrl: env.DATABASE_URL || null,
    redisUrl: env.REDIS_URL || null,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    webDir: path.resolve(env.WEB_DIR || path.join(root, 'dist')),
    logLevel: env.LOG_LEVEL || 'info',
    sessionTtlHours: int(env.SESSION_TTL_HOURS, 24 * 7, 'SESSION_TTL_HOURS'),
    passwordResetTtlMinutes: int(env.PASSWORD_RESET_TTL_MINUTES, 60, 'PASSWORD_RESET_TTL_MINUTES'),
    loginRateLimit: {
      max: int(env.LOGIN_RATE_LIMIT_MAX, 10, 'LOGIN_RATE_LIMIT_MAX'),
      windowMs: int(env.LOGIN_RATE_LIMIT_WINDOW_SECONDS, 15 * 60, 'LOGIN_RATE_LIMIT_WINDOW_SECONDS') * 1000,
    },
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || 'Stepwise <no-reply@stepwise.local>',
    adminEmails: new Set(
      (env.ADMIN_EMAILS || '')
        .split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    ),
    inProcessWorker: bool(env.IN_PROCESS_WORKER, true),
    trustProxy: bool(env.TRUST_PROXY, false),
  };
  return { ...config, ...overrides };
}
