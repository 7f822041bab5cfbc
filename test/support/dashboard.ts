// Real dashboard processes for tests: `bin/gw dashboard --config <file>` exactly as a user starts it, on a free port,
// with its own temporary directory (config, and the PGlite data directory unless a PostgreSQL URL is given).
// Helpers call the admin API (admin-auth), the org API as a user (Authorization: <access key>) and the node API,
// and make an organisation with users of chosen permissions. Every dashboard a test starts is stopped after the
// test file; restart() starts it again on the same port, configuration and database.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import { afterAll, expect } from 'vitest';
import { gwProcess } from './gw-process.ts';
import { freePort } from '../../src/up/ports.ts';
import { http, type HttpResult } from './gateway.ts';

export const ADMIN_SECRET = 'dashboard-admin-secret-for-tests';
export const NODE_SECRET = 'dashboard-node-secret-for-tests';

export type Call = (method: Dispatcher.HttpMethod, path: string, body?: unknown, headers?: Record<string, string>) => Promise<HttpResult>;

export interface RunningDashboard {
  url: string;
  dir: string;
  configFile: string;
  /** Everything the process wrote (JSON log lines). */
  output(): string;
  /** The pid bin/gw runs as (with its children, the whole service). */
  pid(): number;
  /** Calls the admin API with admin-auth. */
  admin: Call;
  /** Calls the org API as the user holding this access key. */
  as(accessKey: string): Call;
  /** Calls the node API with the node secret. */
  node: Call;
  /** Calls without any credential. */
  anonymous: Call;
  /** Stops it (SIGTERM, or the signal given) and waits for the exit; the directory and database stay. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Starts it again on the same port, configuration and database. */
  restart(): Promise<void>;
}

const started = new Set<RunningDashboard>();
const dirs = new Set<string>();

afterAll(async () => {
  await Promise.all([...started].map((d) => d.stop('SIGKILL')));
  started.clear();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs.clear();
});

function caller(base: string, headers: Record<string, string>): Call {
  return (method, path, body, extra = {}) =>
    http(`${base}${path}`, {
      method,
      headers: { ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}), ...headers, ...extra },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
}

/** Starts `gw dashboard` with this configuration (merged over test defaults) and waits until it answers; `env`: extra environment. */
export async function startDashboard(config: Record<string, unknown> = {}, env: Record<string, string> = {}): Promise<RunningDashboard> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-dashboard-test-'));
  dirs.add(dir);
  const port = (config.listen_port as number | undefined) ?? (await freePort());
  const full = {
    listen_address: '127.0.0.1',
    listen_port: port,
    admin_secret: ADMIN_SECRET,
    node_secret: NODE_SECRET,
    database_url: 'db',
    log_level: 'info',
    ...config,
  };
  const configFile = join(dir, 'dashboard.json');
  writeFileSync(configFile, JSON.stringify(full, null, 2));
  const url = `http://127.0.0.1:${port}`;

  const launched = gwProcess({
    args: ['dashboard', '--config', configFile],
    readyUrl: `${url}/hello`,
    name: 'dashboard',
    ...(Object.keys(env).length > 0 ? { env: { ...process.env, ...env } } : {}),
  });
  await launched.start();

  const dashboard: RunningDashboard = {
    url,
    dir,
    configFile,
    output: launched.output,
    pid: () => launched.pid()!,
    admin: caller(url, { 'admin-auth': ADMIN_SECRET }),
    as: (accessKey) => caller(url, { authorization: accessKey }),
    node: caller(url, { 'x-gw-node-secret': NODE_SECRET }),
    anonymous: caller(url, {}),
    stop: (signal) => {
      started.delete(dashboard);
      return launched.stop(signal);
    },
    restart: async () => {
      await dashboard.stop();
      started.add(dashboard);
      await launched.start();
    },
  };
  started.add(dashboard);
  return dashboard;
}

export type Permission = 'read' | 'write' | 'deny';
export type Permissions = Partial<
  Record<'apis' | 'policies' | 'keys' | 'certificates' | 'portal' | 'analytics' | 'users' | 'user_groups' | 'audit_logs', Permission>
>;

export const ALL_WRITE: Permissions = { apis: 'write', policies: 'write', keys: 'write', certificates: 'write', portal: 'write' };

export interface TestOrg {
  id: string;
  /** An access key of a user with write permission on everything. */
  key: string;
  /** The org API as that user. */
  call: Call;
  /** A further user of this organisation; its access key. */
  user(permissions: Permissions, options?: { system?: boolean }): Promise<string>;
}

let emails = 0;

/** A new organisation with one user who may write everything. */
export async function createOrg(dashboard: RunningDashboard, ownerName = 'Org'): Promise<TestOrg> {
  const created = await dashboard.admin('POST', '/admin/organisations', { owner_name: ownerName });
  if (created.status !== 200) throw new Error(`organisation not created: ${created.status} ${created.text}`);
  const id = created.json<{ Meta: string }>().Meta;
  const user = async (permissions: Permissions, options: { system?: boolean } = {}): Promise<string> => {
    const response = await dashboard.admin('POST', '/admin/users', {
      org_id: id,
      email_address: `user${++emails}-${process.pid}@example.test`,
      first_name: 'Test',
      last_name: 'User',
      active: true,
      user_permissions: permissions,
      ...(options.system ? { system: true } : {}),
    });
    if (response.status !== 200) throw new Error(`user not created: ${response.status} ${response.text}`);
    return response.json<{ Meta: { access_key: string } }>().Meta.access_key;
  };
  const key = await user(ALL_WRITE);
  return { id, key, call: dashboard.as(key), user };
}

/** A minimal Classic API definition. */
export function classicApi(name: string, listenPath: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, active: true, use_keyless: true, proxy: { listen_path: listenPath, target_url: 'http://127.0.0.1:9/', strip_listen_path: true }, ...extra };
}

/** A minimal OAS API definition with the gateway section. */
export function oasApi(name: string, listenPath: string, id?: string): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: name, version: '1.0.0' },
    paths: { '/anything': { get: { operationId: 'anythingGet', responses: { '200': { description: 'ok' } } } } },
    'x-gw-api-gateway': {
      info: { name, ...(id ? { id } : {}), state: { active: true } },
      upstream: { url: 'http://127.0.0.1:9/' },
      server: { listenPath: { value: listenPath, strip: true } },
    },
  };
}

/** Asymmetric matchers typed as what they stand for (vitest types them `any`). */
export const matching = (pattern: RegExp): string => expect.stringMatching(pattern) as string;
export const containing = <T extends object>(fields: T): T => expect.objectContaining(fields as Record<string, unknown>) as T;
