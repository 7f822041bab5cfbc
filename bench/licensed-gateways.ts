// bench/proxy's licensed-mode pair: a dashboard (in-memory database) holding one token-auth API and a key, and two
// gateways fed by it that differ only in enable_analytics, so the cost of recording and shipping analytics is one
// ratio measured in the same run. The dashboard runs on the load generator's core (it stands for another machine);
// both gateways on the proxy's core, loaded one at a time. The dashboard runs at the lowest CPU priority (nice 19):
// its ingest (parsing, aggregating and storing ~15 000 records a second) must not take the load generator's and
// the origin's CPU, which would lower the analytics scenario's rate for a cost that is not the gateway's. Its CPU
// use during each run and the records the gateway dropped are reported (bench/proxy), so a starved dashboard
// (records dropped, the gateway doing less work) would show.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, request } from 'undici';
import { REPO_ROOT } from '../src/up/paths.ts';

export interface LicensedPair {
  withAnalytics: string;
  withoutAnalytics: string;
  /** The Authorization header of the key both serve. */
  headers: Record<string, string>;
  /** Process ids (their CPU time is read from /proc): the dashboard's, and each gateway's by its URL. */
  dashboardPid: number;
  gatewayPids: Map<string, number>;
  /** Analytics records the gateway with analytics dropped so far (gw_analytics_records_dropped_total, all reasons). */
  droppedRecords(): Promise<number>;
}

const ADMIN = 'bench-admin-secret';
const NODE = 'bench-node-secret';

type Start = (cpu: number, command: string, args: string[]) => ChildProcess;

async function call(
  url: string,
  method: 'GET' | 'POST',
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await request(url, { method, headers: { 'content-type': 'application/json', ...headers }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const text = await response.body.text();
  return { status: response.statusCode, json: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function until(what: string, probe: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 2400; i++) {
    if (await probe().catch(() => false)) return;
    await sleep(50);
  }
  throw new Error(`bench: ${what} did not happen`);
}

export async function startLicensedPair(work: string, start: Start, ports: [number, number, number], origin: string): Promise<LicensedPair> {
  const [dashboardPort, onPort, offPort] = ports;
  const dir = join(work, 'licensed');
  mkdirSync(dir, { recursive: true });
  const dashboardConfig = join(dir, 'dashboard.json');
  writeFileSync(
    dashboardConfig,
    JSON.stringify({
      listen_address: '127.0.0.1',
      listen_port: dashboardPort,
      admin_secret: ADMIN,
      node_secret: NODE,
      database_url: 'memory:',
      log_level: 'error',
    }),
  );
  const dashboardProcess = start(0, process.execPath, [join(REPO_ROOT, 'src', 'cli.ts'), 'dashboard', '--config', dashboardConfig]);
  const dashboard = `http://127.0.0.1:${dashboardPort}`;
  await until('the dashboard answering', async () => (await call(`${dashboard}/hello`, 'GET', {})).status === 200);
  // Lowered once it runs: started at nice 19 on a busy machine it may not come up at all.
  execFileSync('renice', ['-n', '19', '-p', String(dashboardProcess.pid)], { stdio: 'ignore' });

  const org = (await call(`${dashboard}/admin/organisations`, 'POST', { 'admin-auth': ADMIN }, { owner_name: 'bench' })).json.Meta as string;
  const user = await call(
    `${dashboard}/admin/users`,
    'POST',
    { 'admin-auth': ADMIN },
    { org_id: org, email_address: 'bench@example.test', first_name: 'b', last_name: 'b', active: true, user_permissions: { apis: 'write', keys: 'write' } },
  );
  const access = { authorization: (user.json.Meta as { access_key: string }).access_key };
  const api = await call(`${dashboard}/api/apis`, 'POST', access, {
    name: 'licensed',
    active: true,
    use_keyless: false,
    use_standard_auth: true,
    auth_configs: { authToken: { auth_header_name: 'Authorization' } },
    proxy: { listen_path: '/licensed', target_url: origin, strip_listen_path: true },
  });
  const apiId = api.json.Meta as string;
  const limits = { rate: 1_000_000, per: 1, quota_max: 1_000_000_000, quota_renewal_rate: 86_400 };
  const key = (await call(`${dashboard}/api/keys`, 'POST', access, { access_rights: { [apiId]: { api_id: apiId, versions: [] } }, alias: 'bench', ...limits }))
    .json.key as string;

  const gatewayPids = new Map<string, number>();
  const gateway = (name: string, port: number, analytics: boolean): string => {
    const gwDir = join(dir, name);
    mkdirSync(gwDir, { recursive: true });
    writeFileSync(
      join(gwDir, 'gw.json'),
      JSON.stringify({
        listen_address: '127.0.0.1',
        listen_port: port,
        secret: 'bench-secret',
        log_level: 'error',
        enable_analytics: analytics,
        use_db_app_configs: true,
        policies: { policy_source: 'service' },
        db_app_conf_options: { connection_string: dashboard, node_secret: NODE },
      }),
    );
    const child = start(1, process.execPath, [join(REPO_ROOT, 'src', 'cli.ts'), 'gateway', '--config', join(gwDir, 'gw.json')]);
    gatewayPids.set(`http://127.0.0.1:${port}/licensed/`, child.pid!);
    return `http://127.0.0.1:${port}/licensed/`;
  };
  const droppedRecords = async (): Promise<number> => {
    // Its own connection: a pooled one idle since the set-up may be closed by the gateway just as it is reused.
    const client = new Client(`http://127.0.0.1:${onPort}`);
    const text = await (await client.request({ path: '/metrics', method: 'GET' })).body.text().finally(() => client.close());
    return [...text.matchAll(/^gw_analytics_records_dropped_total\{[^}]*\} (\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
  };
  const pair = {
    withAnalytics: gateway('analytics-on', onPort, true),
    withoutAnalytics: gateway('analytics-off', offPort, false),
    headers: { Authorization: key },
    dashboardPid: dashboardProcess.pid!,
    gatewayPids,
    droppedRecords,
  };
  for (const url of [pair.withAnalytics, pair.withoutAnalytics])
    await until(`${url} serving the key`, async () => (await call(url, 'GET', pair.headers)).status === 200);
  return pair;
}
