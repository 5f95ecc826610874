import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ErrorOut, ValidationErrorOut } from '../http/common.schemas';
import { API_PREFIX } from './authentication';
import { DOCS_PREFIX } from './security-headers';

/**
 * The OpenAPI 3 document is generated from the same TypeBox schemas that validate requests, so
 * the docs cannot drift from the code. Served at /api/v1/openapi.json, browsable at /api/docs.
 */
export default fp(
  async (app) => {
    app.addSchema(ErrorOut);
    app.addSchema(ValidationErrorOut);
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Stepwise API',
          version: '1',
          description:
            'Build step-based workflows and run them over datasets and files. Secure calls take `Authorization: Bearer <access_token>` from `POST /auth/login`. Errors: `{detail}`, or 422 `{errors: [{msg, loc}]}`.',
        },
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      },
      refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
    });
    await app.register(swaggerUi, { routePrefix: DOCS_PREFIX, uiConfig: { docExpansion: 'list', deepLinking: true } });

    // The document cannot change once the app is ready: build and serialise it once.
    let document: string | null = null;
    app.get(`${API_PREFIX}/openapi.json`, { config: { public: true }, schema: { hide: true } }, async (_req, reply) => {
      document ??= JSON.stringify(app.swagger());
      return reply.type('application/json; charset=utf-8').send(document);
    });
  },
  { name: 'openapi', dependencies: ['authentication'] },
);
