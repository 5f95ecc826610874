import { DomainError, tooLarge } from '../../lib/errors';
import { hasMessage, translate } from '../../i18n/messages';
import { StepRunFailed } from '../runners/execute';
import { OutboundHttpError } from '../outbound-http/errors';
import { SandboxError } from '../sandbox';
import { failureReason, limitKeys } from './state-reasons';

describe('failureReason', () => {
  it('calls a limit reached a limit, also when it is the cause of the step failure that wraps it', () => {
    expect(failureReason(new StepRunFailed('The code ran longer than its limit', new SandboxError('timeout', { seconds: 5 })))).toBe('limit');
    expect(failureReason(new SandboxError('memory'))).toBe('limit');
    expect(failureReason(new OutboundHttpError('too_large', { host: 'x', limit: 1 }))).toBe('limit');
    expect(failureReason(tooLarge('server.files.fileTooLarge', { name: 'a', max: '1 MB' }))).toBe('limit');
    expect(failureReason(new StepRunFailed('too big', null, { key: 'server.steps.webhookTooLarge', values: { limit: 1 } }))).toBe('limit');
    expect(failureReason(new DomainError('conflict', 'server.files.quotaExceeded'))).toBe('limit');
  });

  it('calls anything else an error', () => {
    expect(failureReason(new StepRunFailed('Binder Error: no column', null))).toBe('error');
    expect(failureReason(new SandboxError('thrown', { message: 'x' }))).toBe('error');
    expect(failureReason(new OutboundHttpError('network'))).toBe('error');
    expect(failureReason(new Error('boom'))).toBe('error');
    expect(failureReason('a string')).toBe('error');
  });

  it('knows only limits whose text people can read, in English and Chinese', () => {
    for (const key of limitKeys()) {
      expect([key, hasMessage(key)]).toEqual([key, true]);
      expect(translate('zh-CN', key)).not.toBe(translate('en', key));
    }
  });
});
