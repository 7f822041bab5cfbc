// The dashboard's configuration: defaults, the two required secrets, GW_DASHBOARD_* overrides, and where a relative
// PGlite directory lands.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configReference, loadDashboardConfig } from './config.ts';
import { ConfigError } from '../config/file-and-env.ts';

function file(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-dashboard-config-'));
  const path = join(dir, 'dashboard.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('loadDashboardConfig', () => {
  it('applies the defaults and puts the PGlite directory beside the config file', () => {
    const path = file({ admin_secret: 'a', node_secret: 'n' });
    const { config, unknownKeys } = loadDashboardConfig(path, {});
    expect(config).toMatchObject({
      listen_address: '127.0.0.1',
      listen_port: 3000,
      allow_explicit_policy_id: false,
      enable_duplicate_slugs: false,
      edition: 'self-managed',
      hash_keys: true,
      page_size: 10,
      log_level: 'info',
    });
    expect(config.database_url).toBe(join(path, '..', 'data', 'dashboard'));
    expect(unknownKeys).toEqual([]);
  });

  it('takes trusted_proxies as addresses or CIDR ranges (from the environment as JSON), and names a bad entry', () => {
    const path = file({ admin_secret: 'a', node_secret: 'n' });
    expect(loadDashboardConfig(path, {}).config.trusted_proxies).toEqual([]);
    expect(loadDashboardConfig(path, { GW_DASHBOARD_TRUSTED_PROXIES: '["10.0.0.0/8","::1"]' }).config.trusted_proxies).toEqual(['10.0.0.0/8', '::1']);
    expect(() => loadDashboardConfig(file({ admin_secret: 'a', node_secret: 'n', trusted_proxies: ['proxy.example'] }), {})).toThrow(/trusted_proxies\[0\]/);
  });

  it('names every missing secret and never echoes a given one', () => {
    expect(() => loadDashboardConfig(file({ node_secret: 'hush' }), {})).toThrow(/admin_secret/);
    try {
      loadDashboardConfig(file({ node_secret: 'hush', admin_secret: '' }), {});
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([expect.stringMatching(/^admin_secret: /) as string]);
      expect((error as Error).message).not.toContain('hush');
    }
  });

  it('takes GW_DASHBOARD_<KEY> over the file, as strings or JSON by the option type', () => {
    const { config } = loadDashboardConfig(file({ admin_secret: 'a', node_secret: 'n', edition: 'cloud', unknown_option: 1 }), {
      GW_DASHBOARD_EDITION: 'self-managed',
      GW_DASHBOARD_ALLOW_EXPLICIT_POLICY_ID: 'true',
      GW_DASHBOARD_PAGE_SIZE: '25',
      GW_DASHBOARD_DATABASE_URL: 'postgres://u:p@db:5432/gw',
    });
    expect(config).toMatchObject({ edition: 'self-managed', allow_explicit_policy_id: true, page_size: 25, database_url: 'postgres://u:p@db:5432/gw' });
    expect(
      loadDashboardConfig(undefined, { GW_DASHBOARD_ADMIN_SECRET: 'a', GW_DASHBOARD_NODE_SECRET: 'n', GW_DASHBOARD_DATABASE_URL: 'memory:' }).config
        .database_url,
    ).toBe('memory:');
    expect(() => loadDashboardConfig(undefined, { GW_DASHBOARD_ADMIN_SECRET: 'a', GW_DASHBOARD_NODE_SECRET: 'n', GW_DASHBOARD_HASH_KEYS: 'yes' })).toThrow(
      /GW_DASHBOARD_HASH_KEYS/,
    );
  });

  it('reports unknown keys and refuses a file that is not a JSON object', () => {
    expect(loadDashboardConfig(file({ admin_secret: 'a', node_secret: 'n', secert: 'x' }), {}).unknownKeys).toEqual(['secert']);
    expect(() => loadDashboardConfig(file('[1]'), {})).toThrow(/dashboard\.json: must hold a JSON object/);
    expect(() => loadDashboardConfig(file('{ nope'), {})).toThrow(/dashboard\.json: not valid JSON/);
  });

  it('documents every option', () => {
    for (const option of configReference()) {
      expect(option.description, option.key).not.toBe('');
      expect(option.env).toBe(`GW_DASHBOARD_${option.key.toUpperCase()}`);
    }
  });
});
