// The governance hub's configuration: documented defaults, the database directory relative to the config file,
// environment overrides, and problems that name the key without echoing a secret.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configReference, loadGovernanceConfig } from './config.ts';
import { ConfigError } from '../config/file-and-env.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-governance-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeConfig(name: string, body: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body));
  return file;
}

function problems(file: string | undefined, env: NodeJS.ProcessEnv = {}): string[] {
  try {
    loadGovernanceConfig(file, env, '/work/here');
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('governance configuration', () => {
  it('applies the documented defaults, the database in data/governance under the working directory', () => {
    expect(loadGovernanceConfig(undefined, {}, '/work/here')).toEqual({
      config: {
        listen_address: '127.0.0.1',
        listen_port: 4000,
        database_url: '/work/here/data/governance',
        max_body_bytes: 1024 * 1024,
        log_level: 'info',
      },
      unknownKeys: [],
    });
  });

  it('resolves a database directory against the config file, keeps URLs as given, and reports unknown keys', () => {
    const relative = writeConfig('relative.json', { admin_token: 'a'.repeat(16), database_url: 'db/hub', colour: 'blue' });
    const loaded = loadGovernanceConfig(relative, {}, '/elsewhere');
    expect(loaded.config.database_url).toBe(join(dir, 'db', 'hub'));
    expect(loaded.unknownKeys).toEqual(['colour']);
    expect(loadGovernanceConfig(writeConfig('default.json', {}), {}).config.database_url).toBe(join(dir, 'data', 'governance'));
    const url = 'postgres://hub:pw@db.internal:5432/governance';
    expect(loadGovernanceConfig(writeConfig('pg.json', { database_url: url }), {}).config.database_url).toBe(url);
    expect(loadGovernanceConfig(undefined, { GW_GOVERNANCE_DATABASE_URL: 'memory:' }).config.database_url).toBe('memory:');
  });

  it('lets GW_GOVERNANCE_<KEY> override the file, numbers parsed', () => {
    const file = writeConfig('env.json', { listen_port: 4100, log_level: 'warn' });
    const { config } = loadGovernanceConfig(file, { GW_GOVERNANCE_LISTEN_PORT: '4200', GW_GOVERNANCE_ADMIN_TOKEN: 'from-the-environment' });
    expect(config).toMatchObject({ listen_port: 4200, log_level: 'warn', admin_token: 'from-the-environment' });
  });

  it('names every bad key, one line each, without echoing the admin token', () => {
    const found = problems(writeConfig('bad.json', { listen_port: 70000, log_level: 'loud', admin_token: 'short-secret' }), {
      GW_GOVERNANCE_MAX_BODY_BYTES: 'lots',
    });
    expect(found.map((line) => line.split(':')[0])).toEqual(['GW_GOVERNANCE_MAX_BODY_BYTES', 'listen_port', 'admin_token', 'log_level']);
    expect(found.join('\n')).toContain('admin_token: admin_token must be at least 16 characters');
    expect(found.join('\n')).not.toContain('short-secret');
  });

  it('refuses a file it cannot read or parse, naming the file', () => {
    expect(problems(join(dir, 'missing.json'))[0]).toMatch(/missing\.json: cannot read it \(ENOENT\)/);
    expect(problems(writeConfig('broken.json', '{"listen_port": '))[0]).toMatch(/broken\.json: not valid JSON/);
    expect(problems(writeConfig('array.json', '[]'))[0]).toMatch(/array\.json: must hold a JSON object/);
  });

  it('documents every option with its environment variable', () => {
    const options = configReference();
    expect(options.map((o) => o.env)).toEqual([
      'GW_GOVERNANCE_LISTEN_ADDRESS',
      'GW_GOVERNANCE_LISTEN_PORT',
      'GW_GOVERNANCE_DATABASE_URL',
      'GW_GOVERNANCE_ADMIN_TOKEN',
      'GW_GOVERNANCE_MAX_BODY_BYTES',
      'GW_GOVERNANCE_LOG_LEVEL',
    ]);
    for (const option of options) expect(option.description).not.toBe('');
  });
});
