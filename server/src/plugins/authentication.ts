import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { SessionsRepository, type SessionUser } from '../modules/auth/sessions.repository';
import { hashToken } from '../modules/auth/tokens';
import { HttpError } from '../lib/http-error';

export type AuthUser = SessionUser;

export interface RouteInfo {
  method: string;
  url: string;
  public: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user; set on every secure route before validation runs. */
    user: AuthUser | null;
  }
  interface FastifyContextConfig {
    /** A public route needs no token (spec §6). Every other /api route does. */
    public?: boolean;
  }
  interface FastifyInstance {
    /** Every API route and whether it is public, for the docs and for tests. */
    apiRoutes: RouteInfo[];
    /** Sets `req.user` from the bearer token, or throws 401: the check of every secure route. */
    authenticate(req: FastifyRequest): Promise<void>;
  }
}

export const API_PREFIX = '/api/v1';

/**
 * Secure by default: every route under /api/v1 needs a valid bearer token unless it is marked
 * `config: { public: true }`. The check runs in onRequest, so a caller without a token gets 401
 * before anything is parsed or validated.
 */
export default fp(
  async (app) => {
    const sessions = new SessionsRepository(app.db);
    const routes: RouteInfo[] = [];
    app.decorate('apiRoutes', routes);
    app.decorateRequest('user', null);

    const authenticate = async (req: FastifyRequest) => {
      const header = req.headers.authorization;
      const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
      if (!match) throw new HttpError(401, 'server.errors.notAuthenticated');
      const user = await sessions.findUserByTokenHash(hashToken(match[1]), new Date().toISOString());
      if (!user) throw new HttpError(401, 'server.errors.invalidToken');
      req.user = user;
    };
    app.decorate('authenticate', authenticate);

    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith(API_PREFIX) || route.method === 'HEAD') return;
      const isPublic = route.config?.public === true;
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url: route.url, public: isPublic });
      }
      if (isPublic) return;
      route.onRequest = [authenticate, ...(route.onRequest ? [route.onRequest].flat() : [])];
      route.schema = { ...route.schema, security: [{ bearer: [] }] };
    });
  },
  { name: 'authentication', dependencies: ['core'] },
);

/** The signed-in user of a secure route (the hook guarantees one). */
export function currentUser(req: FastifyRequest): AuthUser {
  if (!req.user) throw new HttpError(401, 'server.errors.notAuthenticated');
  return req.user;
}
