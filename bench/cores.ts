// bench/proxy's "cores" scenarios: gw with 1 and with N worker threads (N = the cores this process may use) against
// nginx with 1 and N worker processes and the Node floor, keyless and token + rate limit + quota (embedded store:
// with N workers each worker decides on counters the primary shares, store/shared-counters.ts). Each server's CPU per request is read from
// /proc for its whole process tree, so the cost of a request is comparable across worker counts even where the
// load generator shares the cores (on a 2-core machine the N-worker servers run on both cores, wrk and the origin
// too: their throughput is then the machine's, not theirs; CPU per request stays theirs).
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { REPO_ROOT } from '../src/up/paths.ts';

export const CORES = availableParallelism();
export const CORES_PREFIX = 'cores: ';

export interface CoresScenario {
  name: string;
  url: string;
  headers: Record<string, string>;
  cpuOf: ChildProcess;
}

export interface CoresSetup {
  work: string;
  secret: string;
  /** The origin the proxies forward to. */
  origin: string;
  ports: { nginxN: number; gw1: number; gwN: number };
  /** Starts a command pinned to `cpus` (taskset list, e.g. "1" or "0-1"). */
  start: (cpus: string, command: string, args: string[]) => ChildProcess;
  nginx: (cpus: string, name: string, servers: string, workers: number) => ChildProcess;
  waitFor: (url: string) => Promise<void>;
  /** The Node floor already running on the proxy's core, and its process. */
  floor: { url: string; process: ChildProcess };
  /** nginx with one worker already running on the proxy's core, and its process. */
  nginx1: { url: string; process: ChildProcess };
}

const N = `${CORES} workers`;
/** The scenarios' names, in the order startCoresScenarios returns them (bench/proxy selects them before starting any). */
export const CORES_NAMES = [
  `${CORES_PREFIX}nginx, 1 worker`,
  `${CORES_PREFIX}nginx, ${N}`,
  `${CORES_PREFIX}Node floor`,
  `${CORES_PREFIX}gw keyless, 1 worker`,
  `${CORES_PREFIX}gw keyless, ${N}`,
  `${CORES_PREFIX}gw token + limits, 1 worker`,
  `${CORES_PREFIX}gw token + limits, ${N}`,
] as const;

const LIMITS = { rate: 1_000_000, per: 1, quota_max: 1_000_000_000, quota_renewal_rate: 86_400 };

/** Starts gw with 1 and N workers and nginx with N workers; returns the scenarios (names start with CORES_PREFIX). */
export async function startCoresScenarios(setup: CoresSetup): Promise<CoresScenario[]> {
  const all = `0-${CORES - 1}`;
  const nginxN = setup.nginx(
    all,
    'proxy-n',
    `  upstream o { server ${new URL(setup.origin).host}; keepalive 64; }\n  server { listen 127.0.0.1:${setup.ports.nginxN}; location / { proxy_pass http://o; proxy_http_version 1.1; proxy_set_header Connection ""; } }`,
    CORES,
  );
  const gateway = async (name: string, cpus: string, port: number, workers: number): Promise<{ url: string; process: ChildProcess; key: string }> => {
    const dir = join(setup.work, name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'gw.json'), JSON.stringify({ listen_address: '127.0.0.1', listen_port: port, secret: setup.secret, log_level: 'error', workers }));
    const child = setup.start(cpus, process.execPath, [join(REPO_ROOT, 'src', 'cli.ts'), 'gateway', '--config', join(dir, 'gw.json')]);
    const url = `http://127.0.0.1:${port}`;
    await setup.waitFor(`${url}/ready`);
    const admin = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> => {
      const response = await request(`${url}${path}`, {
        method,
        headers: { 'x-gw-authorization': setup.secret },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await response.body.text();
      if (response.statusCode !== 200) throw new Error(`${name} ${method} ${path}: ${response.statusCode} ${text}`);
      return JSON.parse(text) as Record<string, unknown>;
    };
    for (const [id, keyless] of [
      ['keyless', true],
      ['auth', false],
    ] as const)
      await admin('POST', '/gw/apis', {
        name: id,
        api_id: id,
        use_keyless: keyless,
        proxy: { listen_path: `/${id}`, target_url: setup.origin, strip_listen_path: true },
      });
    await admin('GET', '/gw/reload?block=true');
    const { key } = (await admin('POST', '/gw/keys/create', { access_rights: { auth: { api_id: 'auth', versions: [] } }, ...LIMITS })) as { key: string };
    return { url, process: child, key };
  };
  const [one, many] = [await gateway('gw-1-worker', '1', setup.ports.gw1, 1), await gateway('gw-n-workers', all, setup.ports.gwN, CORES)];
  const nginxNUrl = `http://127.0.0.1:${setup.ports.nginxN}/`;
  await setup.waitFor(nginxNUrl);
  const [nginx1Name, nginxNName, floorName, keyless1, keylessN, token1, tokenN] = CORES_NAMES;
  return [
    { name: nginx1Name, url: setup.nginx1.url, headers: {}, cpuOf: setup.nginx1.process },
    { name: nginxNName, url: nginxNUrl, headers: {}, cpuOf: nginxN },
    { name: floorName, url: setup.floor.url, headers: {}, cpuOf: setup.floor.process },
    { name: keyless1, url: `${one.url}/keyless/`, headers: {}, cpuOf: one.process },
    { name: keylessN, url: `${many.url}/keyless/`, headers: {}, cpuOf: many.process },
    { name: token1, url: `${one.url}/auth/`, headers: { Authorization: one.key }, cpuOf: one.process },
    { name: tokenN, url: `${many.url}/auth/`, headers: { Authorization: many.key }, cpuOf: many.process },
  ];
}

/** The cores table: median throughput and CPU per request of each cores scenario. */
export function coresLines(summary: { name: string; rps: number; cpuUs?: number }[]): string[] {
  const rows = summary.filter((r) => r.name.startsWith(CORES_PREFIX));
  if (rows.length === 0) return [];
  return [
    '',
    `${CORES} cores; 1-worker servers on CPU 1, ${CORES}-worker servers on CPUs 0-${CORES - 1} (sharing them with wrk and the origin)`,
    '| scenario | req/s | µs CPU/req (whole process) |',
    '|---|---:|---:|',
    ...rows.map((r) => `| ${r.name.slice(CORES_PREFIX.length)} | ${r.rps.toFixed(0)} | ${r.cpuUs === undefined ? '' : r.cpuUs.toFixed(1)} |`),
    ...scalingLines(rows),
  ];
}

/**
 * Issue 26's target, N workers >= 0.9·N× one worker's throughput, read where the load generator shares the cores:
 * a server that spends c1 µs of CPU per request on one worker and cN on N serves N·c1/cN times one worker's rate
 * when each worker has a core of its own, so the per-worker efficiency c1/cN must be >= 0.9.
 */
function scalingLines(rows: { name: string; cpuUs?: number }[]): string[] {
  const cpuOf = (name: string): number | undefined => rows.find((r) => r.name === `${CORES_PREFIX}${name}`)?.cpuUs;
  const lines: string[] = [];
  for (const server of ['nginx', 'gw keyless', 'gw token + limits']) {
    const one = cpuOf(`${server}, 1 worker`);
    const many = cpuOf(`${server}, ${CORES} workers`);
    if (one === undefined || many === undefined || many === 0) continue;
    const efficiency = one / many;
    lines.push(
      `${server}: ${CORES} workers = ${(CORES * efficiency).toFixed(2)}× one worker's capacity by CPU per request (per-worker efficiency ${efficiency.toFixed(2)}; target >= 0.90)${efficiency >= 0.9 ? '' : ': NOT met'}`,
    );
  }
  return lines.length === 0 ? [] : ['', ...lines];
}
