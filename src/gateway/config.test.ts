import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configReference, loadGatewayConfig } from './config.ts';
import { ConfigError } from '../config/file-and-env.ts';

function file(body: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-config-'));
  const path = join(dir, 'gw.json');
  writeFileSync(path, typeof body === 'string' ? body : JSON.stringify(body));
  return path;
}

function problems(action: () => unknown): string[] {
  try {
    action();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('gateway configuration', () => {
  it('fills every option with its default', () => {
    const { config } = loadGatewayConfig(file({ secret: 's' }), {});
    expect(config).toMatchObject({
      listen_port: 8080,
      hash_keys: true,
      rate_limit_response_headers: 'quotas',
      proxy_default_timeout: 30,
      storage: { type: 'embedded', port: 6379 },
      policies: { policy_source: 'file', allow_explicit_policy_id: true },
      monitor: { enable_trigger_monitors: false, global_trigger_limit: 80 },
    });
  });

  it('refuses to start without a secret, saying why', () => {
    expect(problems(() => loadGatewayConfig(file({}), {}))).toEqual([
      'secret: secret is required: the management API (header x-gw-authorization) must be protected',
    ]);
    expect(problems(() => loadGatewayConfig(file({ secret: '' }), {}))[0]).toMatch(/^secret: secret must not be empty/);
  });

  it('lets GW_GATEWAY_<KEY> environment variables override the file, typed by the option', () => {
    const { config } = loadGatewayConfig(file({ secret: 'from-file', listen_port: 1 }), {
      GW_GATEWAY_SECRET: 'from-env',
      GW_GATEWAY_LISTEN_PORT: '9090',
      GW_GATEWAY_STORAGE_TYPE: 'redis',
      GW_GATEWAY_MONITOR_ENABLE_TRIGGER_MONITORS: 'true',
      GW_GATEWAY_UPSTREAM_HOSTS: '{"svc.ns.svc":"10.0.0.1"}',
    });
    expect(config).toMatchObject({
      secret: 'from-env',
      listen_port: 9090,
      storage: { type: 'redis' },
      monitor: { enable_trigger_monitors: true },
      upstream_hosts: { 'svc.ns.svc': '10.0.0.1' },
    });
  });

  it('names the key or variable of every problem, all at once', () => {
    expect(
      problems(() => loadGatewayConfig(file({ secret: 's', listen_port: 'x', storage: { type: 'disk' } }), { GW_GATEWAY_PROXY_DEFAULT_TIMEOUT: 'soon' })),
    ).toEqual([
      'GW_GATEWAY_PROXY_DEFAULT_TIMEOUT: not valid JSON for proxy_default_timeout',
      'listen_port: Invalid input: expected number, received string',
      'storage.type: Invalid option: expected one of "embedded"|"redis"',
    ]);
    expect(problems(() => loadGatewayConfig(file('{ nope'), {}))[0]).toMatch(/gw\.json: not valid JSON/);
    expect(problems(() => loadGatewayConfig('/no/such/file.json', {}))[0]).toBe('/no/such/file.json: cannot read it (ENOENT)');
  });

  it('reads trusted_proxies (default: none) and names an entry that is not an address or CIDR range', () => {
    expect(loadGatewayConfig(file({ secret: 's' }), {}).config.trusted_proxies).toEqual([]);
    expect(loadGatewayConfig(file({ secret: 's' }), { GW_GATEWAY_TRUSTED_PROXIES: '["10.0.0.0/8","::1"]' }).config.trusted_proxies).toEqual([
      '10.0.0.0/8',
      '::1',
    ]);
    expect(problems(() => loadGatewayConfig(file({ secret: 's', trusted_proxies: ['10.0.0.0/8', 'proxy.local'] }), {}))).toEqual([
      'trusted_proxies[1]: must be an IP address or a CIDR range, e.g. 10.0.0.0/8 or fd00::/8',
    ]);
  });

  it('resolves relative paths against the configuration file, and reports unknown keys', () => {
    const path = file({ secret: 's', app_path: 'apps', listen_prot: 1, storage: { paht: 'x' } });
    const { config, unknownKeys } = loadGatewayConfig(path, {});
    expect(config.app_path).toBe(join(path, '..', 'apps'));
    expect(config.storage.path).toBe(join(path, '..', 'data'));
    expect(unknownKeys).toEqual(['listen_prot', 'storage.paht']);
  });

  it('documents every option with its environment variable', () => {
    const reference = configReference();
    expect(reference.find((o) => o.key === 'storage.type')).toMatchObject({ env: 'GW_GATEWAY_STORAGE_TYPE', default: 'embedded' });
    expect(reference.find((o) => o.key === 'secret')).toMatchObject({ env: 'GW_GATEWAY_SECRET', default: undefined });
    for (const option of reference) expect(option.description, option.key).not.toBe('');
  });

  it('bounds slow clients by default and refuses a headers timeout longer than the request timeout', () => {
    const { config } = loadGatewayConfig(file({ secret: 's' }), {});
    expect(config.client_connections).toEqual({
      headers_timeout_seconds: 10,
      request_timeout_seconds: 120,
      keep_alive_timeout_seconds: 65,
      max_connections: 10_000,
    });
    const found = problems(() =>
      loadGatewayConfig(file({ secret: 's', client_connections: { headers_timeout_seconds: 30, request_timeout_seconds: 20 } }), {}),
    );
    expect(found.join('\n')).toMatch(/client_connections\.headers_timeout_seconds.*must not exceed request_timeout_seconds/);
  });
});
