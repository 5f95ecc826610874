import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import formBody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config/config';
import { frameworkErrorHandler } from './http/framework-errors';
import antiForgery from './plugins/anti-forgery';
import authentication, { API_PREFIX } from './plugins/authentication';
import core from './plugins/core';
import errors from './plugins/errors';
import inputBounds from './plugins/input-bounds';
import mail from './plugins/mail';
import openapi from './plugins/openapi';
import rateLimits from './plugins/rate-limits';
import requestContext, { requestIdFrom } from './plugins/request-context';
import compression from './plugins/compression';
import securityHeaders from './plugins/security-headers';
import webApp from './plugins/web-app';
import datasetsRoutes from './modules/datasets/datasets.routes';
import runsRoutes from './modules/runs/runs.routes';
import authRoutes from './modules/auth/auth.routes';
import usersRoutes from './modules/users/users.routes';
import stepInfosRoutes from './modules/step-infos/step-infos.routes';
import filesRoutes from './modules/files/files.routes';
import workflowsRoutes from './modules/workflows/workflows.routes';
import stepsRoutes from './modules/steps/steps.routes';
import variablesRoutes from './modules/variables/variables.routes';
import historyRoutes from './modules/history/history.routes';
import cloneRoutes from './modules/clone/clone.routes';
import stepConnectionsRoutes from './modules/step-connections/step-connections.routes';
import conversationsRoutes from './modules/conversations/conversations.routes';
import agentsRoutes from './modules/agents/agents.routes';
import paymentsRoutes from './modules/payments/payments.routes';
import contactRoutes from './modules/contact/contact.routes';
import betaRoutes from './modules/beta/beta.routes';
import videosRoutes from './modules/videos/videos.routes';
import usageRoutes from './modules/usage/usage.routes';
import { openCore, type Core } from './composition';
import type { SecretBox } from './lib/secret-box';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** Seals secret values (workflow variables) at rest. */
    secrets: SecretBox;
  }
}

export interface AppOptions {
  config: Config;
  /** A PostgreSQL schema to work in instead of public (the benchmarks use one of their own). */
  pgSchema?: string;
  /** Tests: a Redis key prefix of their own. */
  redisNamespace?: string;
  /** Defaults to pino at config.logLevel. */
  logger?: FastifyServerOptions['logger'];
  /** A ready-made pino logger instead (tests read what is logged). */
  loggerInstance?: FastifyServerOptions['loggerInstance'];
}

/** Fastify's own options: the parts that must be set when the instance is created. */
function serverOptions(options: AppOptions, appOf: () => FastifyInstance): FastifyServerOptions {
  return {
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: options.logger ?? { level: options.config.logLevel } }),
    // One line per request comes from the request-context plugin instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
    genReqId: requestIdFrom,
    trustProxy: options.config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    // The router's own refusals (undecodable or over-long path parameters) in our error shapes.
    frameworkErrors: frameworkErrorHandler(appOf),
    ajv: {
      customOptions: {
        allErrors: true,
        removeAdditional: false,
        coerceTypes: 'array',
        useDefaults: true,
      },
    },
  };
}

/**
 * The whole server as one Fastify instance: plugins first (their order is their dependencies),
 * then one route plugin per area under /api/v1. `server.ts` only listens; tests call `inject()`,
 * which readies the app (so a test may still add a route first).
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify(serverOptions(options, () => app)).withTypeProvider<TypeBoxTypeProvider>();
  const parts = await openCore({ config: options.config, log: app.log, pgSchema: options.pgSchema, redisNamespace: options.redisNamespace });
  try {
    await register(app, options, parts);
  } catch (err) {
    await parts.close().catch(() => undefined);
    throw err;
  }
  return app;
}

async function register(app: FastifyInstance, options: AppOptions, parts: Core): Promise<void> {
  app.decorate('config', options.config);
  app.decorate('secrets', parts.secrets);

  await app.register(requestContext);
  await app.register(securityHeaders);
  await app.register(errors);
  await app.register(inputBounds);
  await app.register(core, { core: parts });
  await app.register(mail);
  await app.register(authentication);
  await app.register(antiForgery);
  await app.register(formBody);
  await app.register(rateLimits, { redisNamespace: options.redisNamespace });
  await app.register(openapi);
  await app.register(webApp);

  // The API's calls in a context of their own, where answers of 1 KB and more are compressed
  // (plugins/compression.ts); the web app's files come precompressed from the build.
  await app.register(async (api) => {
    await api.register(compression);
    await api.register(authRoutes, { prefix: `${API_PREFIX}/auth` });
    await api.register(usersRoutes, { prefix: `${API_PREFIX}/users` });
    await api.register(stepInfosRoutes, { prefix: `${API_PREFIX}/workflow-step-infos` });
    await api.register(filesRoutes, { prefix: `${API_PREFIX}/files` });
    await api.register(workflowsRoutes, { prefix: `${API_PREFIX}/workflows` });
    await api.register(variablesRoutes, { prefix: `${API_PREFIX}/workflows` });
    await api.register(stepConnectionsRoutes, { prefix: `${API_PREFIX}/workflows` });
    await api.register(stepsRoutes, { prefix: `${API_PREFIX}/workflow-steps` });
    await api.register(historyRoutes, { prefix: `${API_PREFIX}/workflow-history` });
    await api.register(datasetsRoutes, { prefix: `${API_PREFIX}/datasets` });
    await api.register(cloneRoutes, { prefix: API_PREFIX });
    await api.register(runsRoutes, { prefix: API_PREFIX });
    await api.register(conversationsRoutes, { prefix: `${API_PREFIX}/conversations` });
    await api.register(agentsRoutes, { prefix: `${API_PREFIX}/agents` });
    await api.register(paymentsRoutes, { prefix: `${API_PREFIX}/payments` });
    await api.register(contactRoutes, { prefix: `${API_PREFIX}/contact` });
    await api.register(betaRoutes, { prefix: `${API_PREFIX}/beta-interest` });
    await api.register(videosRoutes, { prefix: `${API_PREFIX}/videos` });
    await api.register(usageRoutes, { prefix: API_PREFIX });
  });
}
