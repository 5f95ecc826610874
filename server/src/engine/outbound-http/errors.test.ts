import { translate } from '../../i18n/messages';
import { OutboundHttpError } from './errors';
import type { OutboundHttpErrorKind } from './errors';

// Every kind, with the values the client gives it, reads as a whole sentence in both languages.
const examples: Record<OutboundHttpErrorKind, OutboundHttpError> = {
  blocked_address: new OutboundHttpError('blocked_address', { host: 'internal.test', address: '10.0.0.7' }),
  bad_url: new OutboundHttpError('bad_url', { reason: 'scheme' }),
  bad_request: new OutboundHttpError('bad_request', { reason: 'header', header: 'Host' }),
  timeout: new OutboundHttpError('timeout', { host: 'api.example.com', seconds: 30 }),
  aborted: new OutboundHttpError('aborted'),
  too_large: new OutboundHttpError('too_large', { host: 'api.example.com', limit: 1000 }),
  too_many_redirects: new OutboundHttpError('too_many_redirects', { host: 'api.example.com', limit: 5 }),
  network: new OutboundHttpError('network', { host: 'api.example.com', reason: 'ECONNREFUSED' }),
};

describe('OutboundHttpError messages', () => {
  it.each(Object.entries(examples))('%s has a server.http.* text in English and Chinese', (_kind, error) => {
    expect(error.key).toMatch(/^server\.http\./);
    for (const language of ['en', 'zh-CN'] as const) {
      const text = translate(language, error.key, error.values);
      expect(text).not.toMatch(/\{\w+\}/);
    }
  });

  it('names the host and the address it refused', () => {
    expect(translate('en', examples.blocked_address.key, examples.blocked_address.values)).toBe(
      'Calls to internal.test are not allowed: it leads to a private, local or reserved address (10.0.0.7). An administrator can allow it with HTTP_STEPS_ALLOWED_HOSTS.',
    );
    expect(translate('zh-CN', examples.timeout.key, examples.timeout.values)).toBe('api.example.com 未在 30 秒内响应。');
  });
});
