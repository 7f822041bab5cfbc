// bench/memory: the resident memory of the dashboard and the governance hub on each database engine.
//
//   node scripts/node24.mjs node bench/memory.ts [--json] [--services dashboard,governance] [--engines postgres,pglite]
//
// For each service x engine: start `bin/gw <service> --config <file>` exactly as a user does (PostgreSQL: a fresh
// database on a server this script starts; PGlite: a data directory), wait until it answers and settles, and read
// the RSS of its process tree (/proc VmRSS of the process and its children: where the machine's node is older than
// 24, bin/gw runs the real Node as a child, and that bootstrap's own ~40 MB is counted too). Then a fixed load
// (dashboard: an organisation, 200 APIs, 100 policies, 200 keys, 50 node-config reads, 50 list pages; hub: 100
// labels, 500 labelled APIs, 100 searches) and the RSS again, plus the peak (VmHWM, summed over the tree); then a
// restart on the same database and its idle RSS (the steady state: no initdb). Targets (issue 10): idle <= 150 MB
// on PostgreSQL.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { REPO_ROOT } from '../src/up/paths.ts';
import { freePort } from '../src/up/ports.ts';
import { startPostgresServer, type RunningPostgres } from '../test/support/postgres-server.ts';
import { treeMemoryMb } from '../test/support/process-memory.ts';

type Service = 'dashboard' | 'governance';
type Engine = 'postgres' | 'pglite';

interface Row {
  service: Service;
  engine: Engine;
  idleMb: number;
  loadedMb: number;
  peakMb: number;
  restartIdleMb: number;
}

const ADMIN = 'bench-admin-secret-0123456789';
const SETTLE_MS = 3_000;

const { values } = parseArgs({
  options: {
    json: { type: 'boolean' },
    services: { type: 'string', default: 'dashboard,governance' },
    engines: { type: 'string', default: 'postgres,pglite' },
  },
});

async function call(url: string, method: 'GET' | 'POST' | 'PUT', headers: Record<string, string>, body?: unknown): Promise<unknown> {
  const response = await request(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.body.text();
  if (response.statusCode >= 400) throw new Error(`${method} ${url}: ${response.statusCode} ${text.slice(0, 200)}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

async function waitUntilAnswering(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}) before answering ${url}`);
    try {
      const response = await request(url);
      await response.body.dump();
      if (response.statusCode < 500) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within 60 s`);
    await sleep(100);
  }
}

async function loadDashboard(base: string): Promise<void> {
  const admin = { 'admin-auth': ADMIN };
  const org = ((await call(`${base}/admin/organisations`, 'POST', admin, { owner_name: 'Bench' })) as { Meta: string }).Meta;
  const permissions = { apis: 'write', policies: 'write', keys: 'write', certificates: 'write', portal: 'write' };
  const user = (await call(`${base}/admin/users`, 'POST', admin, {
    org_id: org,
    email_address: 'bench@example.test',
    first_name: 'B',
    last_name: 'B',
    active: true,
    user_permissions: permissions,
  })) as {
    Meta: { access_key: string };
  };
  const as = { authorization: user.Meta.access_key };
  const apis: string[] = [];
  for (let i = 0; i < 200; i++) {
    const definition = {
      name: `bench ${i}`,
      proxy: { listen_path: `/bench${i}/`, target_url: 'http://upstream.internal', strip_listen_path: true },
      active: true,
      use_keyless: false,
      auth: { auth_header_name: 'Authorization' },
      version_data: { not_versioned: true, versions: { Default: { name: 'Default' } } },
    };
    apis.push(((await call(`${base}/api/apis`, 'POST', as, { api_definition: definition })) as { Meta: string }).Meta);
  }
  for (let i = 0; i < 100; i++) {
    await call(`${base}/api/portal/policies`, 'POST', as, {
      name: `policy ${i}`,
      rate: 100,
      per: 60,
      access_rights: { [apis[i]!]: { api_id: apis[i], versions: ['Default'] } },
    });
  }
  for (let i = 0; i < 200; i++)
    await call(`${base}/api/keys`, 'POST', as, { rate: 10, per: 1, access_rights: { [apis[i]!]: { api_id: apis[i], versions: ['Default'] } } });
  for (let i = 0; i < 50; i++) await call(`${base}/system/node/config`, 'GET', { 'x-gw-node-secret': ADMIN });
  for (let i = 0; i < 50; i++) await call(`${base}/api/apis?p=${(i % 10) + 1}`, 'GET', as);
}

async function loadGovernance(base: string): Promise<void> {
  const admin = { 'x-api-key': ADMIN };
  for (let i = 0; i < 100; i++) await call(`${base}/api/labels`, 'POST', admin, { name: `label-${i}`, values: ['a', 'b', 'c'] });
  for (let i = 0; i < 500; i++)
    await call(`${base}/api/api-${i}/labels`, 'PUT', admin, { labels: { [`label-${i % 100}`]: ['a', 'b', 'c'][i % 3], [`label-${(i + 1) % 100}`]: 'a' } });
  for (let i = 0; i < 100; i++) await call(`${base}/api/apis?label=label-${i}:a`, 'GET', admin);
}

/** Starts the service, waits until it answers and settles; stop() ends it. */
async function launch(service: Service, configFile: string, base: string): Promise<{ pid: number; stop(): Promise<void> }> {
  const child = spawn(join(REPO_ROOT, 'bin', 'gw'), [service, '--config', configFile], { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitUntilAnswering(`${base}${service === 'dashboard' ? '/hello' : '/health'}`, child);
  } catch (error) {
    await stop();
    throw error;
  }
  await sleep(SETTLE_MS);
  return { pid: child.pid!, stop };
}

async function measure(service: Service, engine: Engine, postgres: RunningPostgres | undefined, index: number): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), `gw-bench-memory-${service}-`));
  const port = await freePort();
  const databaseUrl = postgres ? postgres.createDatabase(`bench_${service}_${index}`) : join(dir, 'data');
  const config =
    service === 'dashboard'
      ? { listen_address: '127.0.0.1', listen_port: port, admin_secret: ADMIN, node_secret: ADMIN, database_url: databaseUrl, log_level: 'warn' }
      : { listen_address: '127.0.0.1', listen_port: port, admin_token: ADMIN, database_url: databaseUrl, log_level: 'warn' };
  const configFile = join(dir, 'config.json');
  writeFileSync(configFile, JSON.stringify(config));
  const base = `http://127.0.0.1:${port}`;
  try {
    const first = await launch(service, configFile, base);
    let row: Omit<Row, 'restartIdleMb'>;
    try {
      const idleMb = treeMemoryMb(first.pid, 'VmRSS');
      await (service === 'dashboard' ? loadDashboard(base) : loadGovernance(base));
      await sleep(SETTLE_MS);
      row = { service, engine, idleMb, loadedMb: treeMemoryMb(first.pid, 'VmRSS'), peakMb: treeMemoryMb(first.pid, 'VmHWM') };
    } finally {
      await first.stop();
    }
    const again = await launch(service, configFile, base);
    try {
      return { ...row, restartIdleMb: treeMemoryMb(again.pid, 'VmRSS') };
    } finally {
      await again.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const services = values.services.split(',') as Service[];
const engines = values.engines.split(',') as Engine[];
const postgres = engines.includes('postgres') ? await startPostgresServer() : undefined;
const rows: Row[] = [];
try {
  let index = 0;
  for (const service of services)
    for (const engine of engines) rows.push(await measure(service, engine, engine === 'postgres' ? postgres : undefined, index++));
} finally {
  await postgres?.stop();
}
if (values.json) {
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
} else {
  process.stdout.write('| service | engine | idle MB (first start) | after load MB | peak MB | idle MB (restart) |\n| --- | --- | --- | --- | --- | --- |\n');
  for (const row of rows) process.stdout.write(`| ${row.service} | ${row.engine} | ${row.idleMb} | ${row.loadedMb} | ${row.peakMb} | ${row.restartIdleMb} |\n`);
}
