import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../lib/http-error';
import { MessageOut } from '../../http/common.schemas';
import { currentUser } from '../../plugins/authentication';
import { LoginIn, PasswordResetRequestIn, ResetPasswordIn, SignupIn, SignupOut, TokenOut } from './auth.schemas';
import { AuthService, normalizeEmail } from './auth.service';

const tags = ['Auth'];

const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const auth = new AuthService(app.db, app.config, app.mailer, app.log);

  const { max, perAddressMax, windowMs } = app.config.loginRateLimit;
  // Per client address and email: guessing one account's password is slow, and one noisy
  // address cannot lock everybody else out.
  const loginLimit = {
    max,
    timeWindow: windowMs,
    hook: 'preHandler' as const,
    keyGenerator: (req: { ip: string; body?: unknown }) =>
      `login:${req.ip}:${normalizeEmail(String((req.body as { username?: unknown } | undefined)?.username ?? ''))}`,
  };
  // Per client address alone, a larger budget: one address trying a few common passwords on many
  // accounts (password spraying) never hits the per-email limit above. The plugin runs one
  // `config.rateLimit` per route, so this second counter is checked by a hook of our own; it runs
  // on onRequest, before the body is even parsed.
  const loginAddressLimit = app.createRateLimit({
    max: perAddressMax,
    timeWindow: windowMs,
    keyGenerator: (req) => `login-address:${req.ip}`,
  });
  const limitLoginPerAddress = async (req: FastifyRequest, reply: FastifyReply) => {
    const verdict = await loginAddressLimit(req);
    if (verdict.isAllowed || !verdict.isExceeded) return;
    reply.header('retry-after', verdict.ttlInSeconds);
    throw new HttpError(429, 'server.errors.tooManyRequests');
  };
  const perAddress = (name: string, perHour: number) => ({
    max: perHour,
    timeWindow: 3_600_000,
    keyGenerator: (req: { ip: string }) => `${name}:${req.ip}`,
  });

  app.post(
    '/signup',
    {
      config: { public: true, rateLimit: perAddress('signup', 30) },
      schema: { tags, summary: 'Create an account', body: SignupIn, response: { 201: SignupOut } },
    },
    async (req, reply) => {
      const user = await auth.signup(req.body, req.language);
      return reply
        .code(201)
        .issueXsrfToken()
        .send({ user, message: req.t('server.auth.signedUp') });
    },
  );

  app.post(
    '/login',
    {
      config: { public: true, rateLimit: loginLimit },
      onRequest: limitLoginPerAddress,
      schema: {
        tags,
        summary: 'Sign in (OAuth2 password form: username = email)',
        consumes: ['application/x-www-form-urlencoded'],
        body: LoginIn,
        response: { 200: TokenOut },
      },
    },
    async (req, reply) => {
      const token = await auth.login(req.body.username, req.body.password, {
        userAgent: req.headers['user-agent']?.slice(0, 300) ?? null,
        ip: req.ip,
      });
      // The browser's first write after signing in needs the double-submit cookie.
      reply.issueXsrfToken();
      return token;
    },
  );

  app.post('/logout', { schema: { tags, summary: 'Sign out: the token stops working', response: { 200: MessageOut } } }, async (req) => {
    await auth.logout(currentUser(req).session_id);
    return { message: req.t('server.auth.signedOut') };
  });

  app.post(
    '/password-reset-request',
    {
      config: { public: true, rateLimit: perAddress('password-reset', 20) },
      schema: { tags, summary: 'Email a single-use password reset link', body: PasswordResetRequestIn, response: { 202: MessageOut } },
    },
    async (req, reply) => {
      await auth.requestPasswordReset(req.body.email);
      return reply.code(202).send({ message: req.t('server.auth.resetRequested') });
    },
  );

  app.post(
    '/reset-password',
    {
      config: { public: true, rateLimit: perAddress('reset-password', 30) },
      schema: { tags, summary: 'Set a new password with an emailed token; ends all sessions', body: ResetPasswordIn, response: { 200: MessageOut } },
    },
    async (req) => {
      await auth.resetPassword(req.body.token, req.body.new_password, req.language);
      return { message: req.t('server.auth.passwordChanged') };
    },
  );
};

export default authRoutes;
