// Real gateway processes for tests: `bin/gw gateway --config <file>` exactly as a user starts it, on free ports,
// with its own temporary directory (config, store, app_path, policies file). Helpers call its management API and
// its proxy over loopback HTTP. Every gateway a test starts is stopped after the test file (or on demand).
import { request as rawRequest } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, type Dispatcher } from 'undici';
import { afterAll } from 'vitest';
import { gwProcess } from './gw-process.ts';
import { freePort } from '../../src/up/ports.ts';

export const SECRET = 'test-secret-do-not-use';

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json<T = unknown>(): T;
}

export interface RunningGateway {
  url: string;
  controlUrl: string;
  dir: string;
  configFile: string;
  /** Everything the process wrote (JSON log lines). */
  output(): string;
  /** The pid bin/gw runs as (its process tree is the gateway: test/support/process-memory.ts). */
  pid(): number | undefined;
  /** Calls the management API with the secret. */
  admin(method: Dispatcher.HttpMethod, path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResult>;
  /** Calls the proxy. */
  call(path: string, options?: { method?: Dispatcher.HttpMethod; headers?: Record<string, string>; body?: string | Buffer }): Promise<HttpResult>;
  reload(): Promise<void>;
  /** Stops it (SIGTERM, or the signal given) and waits for the exit; the directory stays for a restart. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Starts it again on the same ports, configuration and store. */
  restart(): Promise<void>;
}

const started = new Set<RunningGateway>();
const dirs = new Set<string>();

afterAll(async () => {
  await Promise.all([...started].map((gw) => gw.stop('SIGKILL')));
  started.clear();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs.clear();
});

export async function http(
  url: string,
  options: { method?: Dispatcher.HttpMethod; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<HttpResult> {
  const response = await request(url, {
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(options.body !== undefined ? { body: options.body } : {}),
    headersTimeout: 60_000,
    bodyTimeout: 60_000,
  });
  const text = await response.body.text();
  return {
    status: response.statusCode,
    headers: response.headers,
    text,
    json: <T>() => JSON.parse(text) as T,
  };
}

/**
 * A request whose path and headers go on the wire exactly as written: no URL normalisation (undici resolves `..`,
 * `%2e%2e` and `//..` as WHATWG URLs do before sending), no header filtering (undici drops `Connection`).
 */
export function rawHttp(url: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<HttpResult> {
  const { hostname, port } = new URL(url);
  return new Promise((resolveRaw, reject) => {
    const req = rawRequest({ hostname, port, path, method, headers, setHost: !('host' in headers) }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolveRaw({ status: res.statusCode ?? 0, headers: res.headers, text, json: <T>() => JSON.parse(text) as T }));
    });
    req.on('error', reject);
    req.end();
  });
}

export interface GatewayFiles {
  /** app_path/<name>: file-mode API definitions. */
  apps?: Record<string, unknown>;
  /** The policies file (policies.policy_path). */
  policies?: Record<string, unknown>;
  /** Extra environment of the process (e.g. NODE_EXTRA_CA_CERTS to trust a test upstream's CA). */
  env?: Record<string, string>;
}

/** Starts `gw gateway` with this configuration (merged over test defaults) and waits until it is ready. */
export async function startGateway(config: Record<string, unknown> = {}, files: GatewayFiles = {}): Promise<RunningGateway> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-gateway-test-'));
  dirs.add(dir);
  mkdirSync(join(dir, 'apps'), { recursive: true });
  for (const [name, body] of Object.entries(files.apps ?? {})) writeFileSync(join(dir, 'apps', name), typeof body === 'string' ? body : JSON.stringify(body));
  mkdirSync(join(dir, 'policies'), { recursive: true });
  if (files.policies) writeFileSync(join(dir, 'policies', 'policies.json'), JSON.stringify(files.policies));
  const port = (config.listen_port as number | undefined) ?? (await freePort());
  const full: Record<string, unknown> = { listen_address: '127.0.0.1', listen_port: port, secret: SECRET, log_level: 'info', ...config };
  const configFile = join(dir, 'gateway.json');
  writeFileSync(configFile, JSON.stringify(full, null, 2));
  const controlPort = (full.control_api_port as number | undefined) || port;
  const url = `http://127.0.0.1:${port}`;
  const controlUrl = `http://127.0.0.1:${controlPort}`;

  const launched = gwProcess({
    args: ['gateway', '--config', configFile],
    ...(files.env ? { env: { ...process.env, ...files.env } } : {}),
    readyUrl: `${controlUrl}/ready`,
    name: 'gateway',
  });
  await launched.start();

  const gateway: RunningGateway = {
    url,
    controlUrl,
    dir,
    configFile,
    output: launched.output,
    pid: launched.pid,
    admin: (method, path, body, headers = {}) =>
      http(`${controlUrl}${path}`, {
        method,
        headers: { 'x-gw-authorization': SECRET, 'content-type': 'application/json', ...headers },
        ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      }),
    call: (path, options) => http(`${url}${path}`, options),
    reload: async () => {
      const result = await gateway.admin('GET', '/gw/reload?block=true');
      if (result.status !== 200) throw new Error(`reload failed: ${result.status} ${result.text}`);
    },
    stop: (signal) => launched.stop(signal),
    restart: async () => {
      await gateway.stop();
      await launched.start();
    },
  };
  started.add(gateway);
  return gateway;
}

/** A Classic API definition with the usual test defaults. */
/** The body of a gateway error answer, byte for byte as it writes them (src/gateway/pipeline/error-reply.ts). */
export function errorBody(message: string): string {
  return `{\n    "error": ${JSON.stringify(message)}\n}`;
}

export function classicApi(id: string, listenPath: string, targetUrl: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: id,
    api_id: id,
    active: true,
    use_keyless: false,
    proxy: { listen_path: listenPath, target_url: targetUrl, strip_listen_path: true },
    ...extra,
  };
}

/** Creates an API and reloads; fails the test on any error. */
export async function addApi(gateway: RunningGateway, api: Record<string, unknown>): Promise<void> {
  const created = await gateway.admin('POST', '/gw/apis', api);
  if (created.status !== 200) throw new Error(`POST /gw/apis failed: ${created.status} ${created.text}`);
  await gateway.reload();
}

/** Creates a key granting these APIs (all versions) with extra session fields; returns the key. */
export async function addKey(gateway: RunningGateway, apis: string[], session: Record<string, unknown> = {}): Promise<string> {
  const access_rights = Object.fromEntries(apis.map((id) => [id, { api_id: id, versions: [] }]));
  const created = await gateway.admin('POST', '/gw/keys/create', { access_rights, ...session });
  if (created.status !== 200) throw new Error(`POST /gw/keys/create failed: ${created.status} ${created.text}`);
  return created.json<{ key: string }>().key;
}
