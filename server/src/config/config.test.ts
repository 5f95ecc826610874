import { loadConfig } from './config';

describe('HTTP step settings', () => {
  it('refuses private addresses unless the operator says otherwise', () => {
    expect(loadConfig({}).httpSteps).toEqual({ allowPrivate: false, allowedHosts: [] });
  });

  it('reads HTTP_STEPS_ALLOW_PRIVATE and a comma-separated HTTP_STEPS_ALLOWED_HOSTS', () => {
    const config = loadConfig({ HTTP_STEPS_ALLOW_PRIVATE: 'true', HTTP_STEPS_ALLOWED_HOSTS: ' 10.1.0.0/16, api.internal ,*.corp.example,' });
    expect(config.httpSteps).toEqual({ allowPrivate: true, allowedHosts: ['10.1.0.0/16', 'api.internal', '*.corp.example'] });
  });

  it('stops the start on an entry it cannot read', () => {
    expect(() => loadConfig({ HTTP_STEPS_ALLOWED_HOSTS: '10.0.0.0/40' })).toThrow(/HTTP_STEPS_ALLOWED_HOSTS: "10.0.0.0\/40"/);
  });
});
