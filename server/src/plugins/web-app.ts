import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';

/**
 * Serves the built React app from WEB_DIR with history fallback: any GET that is not an API call
 * or a file gets index.html, so /login and /cn/... load the app. Unknown API routes answer
 * 404 {detail}. Hashed assets are cached for a year; index.html never, so a deploy shows at once.
 * The build writes a brotli and a gzip copy of each text file (vite.config.ts, precompress): they
 * are sent as they are to browsers that accept them, instead of compressing on every request.
 */
export default fp(
  async (app) => {
    const webDir = app.config.webDir;
    const hasWebApp = fs.existsSync(path.join(webDir, 'index.html'));
    if (hasWebApp) {
      await app.register(fastifyStatic, {
        root: webDir,
        wildcard: false,
        index: false,
        preCompressed: true,
        // The .br/.gz copies are chosen by Accept-Encoding, not requested by name.
        globIgnore: ['**/*.br', '**/*.gz'],
        setHeaders: (res, filePath) => {
          const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
          res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    } else {
      app.log.warn({ webDir }, 'no built web app found (run `npm run build`); serving the API only');
    }

    app.setNotFoundHandler(async (req, reply) => {
      const isApi = req.url === '/api' || req.url.startsWith('/api/');
      if (isApi || !hasWebApp || (req.method !== 'GET' && req.method !== 'HEAD')) {
        return reply.code(404).send({ detail: req.t('server.errors.routeNotFound') });
      }
      const filePath = req.url.split('?')[0];
      if (path.extname(filePath) && filePath !== '/') {
        // A missing asset must not answer HTML with 200: the browser would try to run it.
        return reply.code(404).send({ detail: req.t('server.errors.routeNotFound') });
      }
      // The page's scripts echo this cookie in X-XSRF-TOKEN on every write.
      return reply.issueXsrfToken().header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    });
  },
  { name: 'web-app', dependencies: ['request-context', 'anti-forgery'] },
);
