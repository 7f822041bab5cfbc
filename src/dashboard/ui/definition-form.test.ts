// The API form's settings read from and written into a Classic definition, every other field left alone.
import { describe, expect, it } from 'vitest';
import { applySettings, NEW_API, settingsOf } from './definition-form.ts';

describe('API form settings', () => {
  const definition = {
    name: 'Orders',
    api_id: 'abc',
    use_standard_auth: true,
    use_keyless: false,
    proxy: { listen_path: '/orders/', target_url: 'http://orders:8080/', strip_listen_path: true, preserve_host_header: true },
    version_data: {
      not_versioned: false,
      default_version: 'v1',
      versions: { v1: { name: 'v1', extended_paths: { ignored: [{ path: '/health' }] } }, v2: { name: 'v2' } },
    },
    global_rate_limit: { rate: 10, per: 1 },
    tags: ['team-a'],
    CORS: { enable: true },
  };

  it('reads the common settings', () => {
    expect(settingsOf(definition)).toEqual({
      name: 'Orders',
      listenPath: '/orders/',
      targetUrl: 'http://orders:8080/',
      stripListenPath: true,
      active: true,
      authMode: 'token',
      versions: 'v1, v2',
      defaultVersion: 'v1',
      rate: '10',
      per: '1',
      tags: 'team-a',
    });
  });

  it('writes them back, keeping every other field and the endpoints of kept versions', () => {
    const written = applySettings(definition, { ...settingsOf(definition), authMode: 'keyless', versions: 'v1, v3', rate: '', per: '', tags: '' });
    expect(written).toEqual({
      ...definition,
      use_standard_auth: false,
      use_keyless: true,
      active: true,
      version_data: { not_versioned: false, default_version: 'v1', versions: { v1: definition.version_data.versions.v1, v3: { name: 'v3' } } },
      global_rate_limit: undefined,
      tags: undefined,
    });
    expect('global_rate_limit' in written).toBe(false);
    expect('tags' in written).toBe(false);
  });

  it('sends a non-number limit as typed, so the dashboard names the field', () => {
    expect(applySettings(NEW_API, { ...settingsOf(NEW_API), rate: 'lots', per: '60' }).global_rate_limit).toEqual({ rate: 'lots', per: 60 });
  });
});
