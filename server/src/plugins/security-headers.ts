import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';

/** Where the Swagger UI lives (plugins/openapi.ts). */
export const DOCS_PREFIX = '/api/docs';

const policy = (directives: Record<string, string[]>) =>
  Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join('; ');

/**
 * The web app (index.html and its assets). Scripts only from our origin: index.html has no inline
 * script (the colour-mode bootstrap is public/theme-init.js). Styles may be inline because
 * Chakra's engine (emotion) injects <style> tags at run time. Images and frames also take blob:
 * and data: for file previews (an object URL of a picture or a PDF). Tutorial videos an admin links
 * may live elsewhere: their thumbnails and files load over https from any host (images and media
 * cannot run code), and only YouTube's privacy-enhanced and Vimeo's players may be framed.
 */
export const WEB_APP_CSP = policy({
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:', 'https:'],
  'media-src': ["'self'", 'https:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'frame-src': ["'self'", 'blob:', 'https://www.youtube-nocookie.com', 'https://player.vimeo.com'],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
});

/** API answers are data, never documents: nothing in them may load or run, nor be framed. */
export const API_CSP = policy({
  'default-src': ["'none'"],
  'frame-ancestors': ["'none'"],
});

/** The Swagger UI: its own scripts and styles (it sets inline styles), the OpenAPI document over
 *  fetch, its data: images; nothing from elsewhere. */
export const DOCS_CSP = policy({
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
});

function cspFor(url: string): string {
  if (url === DOCS_PREFIX || url.startsWith(`${DOCS_PREFIX}/`) || url.startsWith(`${DOCS_PREFIX}?`)) return DOCS_CSP;
  if (url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')) return API_CSP;
  return WEB_APP_CSP;
}

/**
 * The security headers of every answer, in one place: helmet's (nosniff, no framing, no referrer,
 * same-origin opener and resources, HSTS when served over https), and a Content-Security-Policy
 * chosen by what is answered: the web app, the API docs or the API. A route that serves something
 * else (a file download's sandbox) sets its own CSP after this one.
 */
export default fp(
  async (app) => {
    const https = app.config.publicUrl.startsWith('https:');
    await app.register(helmet, {
      // Set below by path; helmet's default policy fits none of the three.
      contentSecurityPolicy: false,
      frameguard: { action: 'deny' },
      // Only a deployment known to be on https pins it; a plain-http install must stay reachable.
      strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    });
    app.addHook('onRequest', async (req, reply) => {
      reply.header('content-security-policy', cspFor(req.url));
    });
  },
  { name: 'security-headers' },
);
