// bench/soak: does a long-running gateway drift? Mixed traffic at a fixed rate for N minutes against one gateway on
// Redis, with the p99 latency and the resident memory sampled each minute, printed as a table and an ASCII chart.
//
//   node scripts/node24.mjs node bench/soak.ts [--minutes 60] [--rate 200] [--api-churn 15] [--snapshots]
//
// Everything on loopback, bounded: a redis-server and an origin (node:http, in this process) started here, one gw
// process (`gw gateway`, storage.type redis). The traffic, open loop (each request is sent at its scheduled time, its
// latency counted from then, so queueing is never hidden), cycles through: a keyless GET, a token GET through a
// rate limit + quota on Redis (the key drawn from a pool that churns), a JWT RS256 GET (the subject drawn from
// 10 000, so the gateway keeps meeting new identities), a POST through a 1 KiB JSON body transform. Beside it, every
// second a key is created and the oldest deleted; every --api-churn seconds (default 15) an API is added under a new
// id with a body transform template of its own (an edited template), the previous one deleted, the gateway
// reloaded, and the new API called a few times. Each minute the gateway's /metrics is scraped too (its size grows
// with every series kept). Targets (issue 26): p99 at the end within 1.5x of the start, RSS flat after
// the warm-up.
//
// --snapshots: the gateway runs with --heapsnapshot-signal=SIGUSR2 and writes a heap snapshot after the first
// minute and at the end (into the directory printed), to compare the retained sizes by constructor.
// The default rate is low on purpose: the machine this was written on is shared.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { SignJWT } from 'jose';
import { Agent, request } from 'undici';
import { REPO_ROOT } from '../src/up/paths.ts';
import { freePorts } from '../src/up/ports.ts';
import { treeMemoryMb } from '../test/support/process-memory.ts';
import { body1KiB, RESHAPE_TEMPLATE } from './json-body.ts';

const SECRET = 'soak-secret';
const KEY_POOL = 50;
const JWT_SUBJECTS = 10_000;

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '60' },
    rate: { type: 'string', default: '200' },
    'api-churn': { type: 'string', default: '15' },
    snapshots: { type: 'boolean', default: false },
  },
});
const minutes = Number(values.minutes);
const rate = Number(values.rate);
const apiChurnSeconds = Math.max(1, Number(values['api-churn']));
if (!(minutes >= 1) || !(rate > 0)) {
  console.error('usage: bench/soak.ts [--minutes N>=1] [--rate req/s] [--snapshots]');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'gw-soak-'));
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  if (!values.snapshots) rmSync(work, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));

const [redisPort, originPort, gwPort] = (await freePorts(3)) as [number, number, number];
children.push(
  spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', work], { stdio: 'ignore' }),
);
const origin = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.end('{"ok":true}\n'));
}).listen(originPort, '127.0.0.1');
process.env.GW_TEMPLATE_ENGINE ??= execFileSync(join(REPO_ROOT, 'scripts', 'build-template-engine.sh'), {
  encoding: 'utf8',
  env: { ...process.env, GW_BUILD_QUIET: '1' },
})
  .trim()
  .split('\n')
  .at(-1)!;
for (let i = 0; !(await redisAnswers(redisPort)); i++) {
  if (i > 200) throw new Error('redis-server did not start');
  await sleep(50);
}
writeFileSync(
  join(work, 'gw.json'),
  JSON.stringify({
    listen_address: '127.0.0.1',
    listen_port: gwPort,
    secret: SECRET,
    log_level: 'error',
    storage: { type: 'redis', host: '127.0.0.1', port: redisPort },
  }),
);
const gwProcess = spawn(
  process.execPath,
  [...(values.snapshots ? ['--heapsnapshot-signal=SIGUSR2'] : []), join(REPO_ROOT, 'src', 'cli.ts'), 'gateway', '--config', join(work, 'gw.json')],
  { cwd: work, stdio: ['ignore', 'ignore', 'inherit'] },
);
children.push(gwProcess);

const gw = `http://127.0.0.1:${gwPort}`;
const dispatcher = new Agent({ connections: 64, keepAliveTimeout: 10_000 });
for (let i = 0; ; i++) {
  try {
    const response = await request(`${gw}/ready`, { dispatcher });
    await response.body.dump();
    if (response.statusCode === 200) break;
  } catch {
    // not up yet
  }
  if (i > 400) throw new Error('the gateway did not come up');
  await sleep(50);
}

async function admin(method: 'POST' | 'GET' | 'DELETE', path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await request(`${gw}${path}`, {
    method,
    dispatcher,
    headers: { 'x-gw-authorization': SECRET },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`${method} ${path}: ${response.statusCode} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

const target = `http://127.0.0.1:${originPort}`;
const proxy = (id: string) => ({ listen_path: `/${id}`, target_url: target, strip_listen_path: true });
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const limits = { rate: 1_000_000, per: 1, quota_max: 1_000_000_000, quota_renewal_rate: 86_400 };
await admin('POST', '/gw/apis', { name: 'keyless', api_id: 'keyless', use_keyless: true, proxy: proxy('keyless') });
await admin('POST', '/gw/apis', { name: 'auth', api_id: 'auth', use_keyless: false, proxy: proxy('auth') });
await admin('POST', '/gw/apis', {
  name: 'jwt',
  api_id: 'jwt',
  enable_jwt: true,
  jwt_signing_method: 'rsa',
  jwt_source: Buffer.from(rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString()).toString('base64'),
  jwt_default_policies: ['soak-jwt'],
  proxy: proxy('jwt'),
});
await admin('POST', '/gw/apis', {
  name: 'transform',
  api_id: 'transform',
  use_keyless: true,
  proxy: proxy('transform'),
  extended_paths: {
    transform: [
      {
        path: '/',
        method: 'POST',
        template_data: { input_type: 'json', template_mode: 'blob', template_source: Buffer.from(RESHAPE_TEMPLATE).toString('base64') },
      },
    ],
  },
});
await admin('POST', '/gw/policies', { id: 'soak-jwt', name: 'soak jwt', access_rights: { jwt: { api_id: 'jwt', versions: [] } }, ...limits });
await admin('GET', '/gw/reload?block=true');

const createKey = async (): Promise<string> =>
  ((await admin('POST', '/gw/keys/create', { access_rights: { auth: { api_id: 'auth', versions: [] } }, ...limits })) as { key: string }).key;
const keys: string[] = [];
for (let i = 0; i < KEY_POOL; i++) keys.push(await createKey());
// The JWTs are signed ahead (RS256 signing is the load generator's cost, not the gateway's).
const jwts: string[] = [];
for (let i = 0; i < 500; i++) {
  const sub = `soak-user-${Math.floor(Math.random() * JWT_SUBJECTS)}`;
  jwts.push(`Bearer ${await new SignJWT({ sub }).setProtectedHeader({ alg: 'RS256' }).setExpirationTime('1d').sign(rsa.privateKey)}`);
}
const jsonBody = body1KiB();

// --- traffic ---
let sent = 0;
let failures = 0;
let latencies: number[] = [];
type Shot = { path: string; method: 'GET' | 'POST'; headers: Record<string, string>; body?: Buffer };
const shots: (() => Shot)[] = [
  () => ({ path: '/keyless/', method: 'GET', headers: {} }),
  () => ({ path: '/auth/', method: 'GET', headers: { authorization: keys[Math.floor(Math.random() * keys.length)]! } }),
  () => ({ path: '/jwt/', method: 'GET', headers: { authorization: jwts[Math.floor(Math.random() * jwts.length)]! } }),
  () => ({ path: '/transform/', method: 'POST', headers: { 'content-type': 'application/json' }, body: jsonBody }),
];
async function fire(scheduledAt: number, shot: Shot): Promise<void> {
  try {
    const response = await request(`${gw}${shot.path}`, { method: shot.method, headers: shot.headers, dispatcher, ...(shot.body ? { body: shot.body } : {}) });
    await response.body.dump();
    // A key deleted by the churn between drawing and arriving answers 403: not a failure of the gateway.
    if (response.statusCode !== 200 && response.statusCode !== 403) failures++;
  } catch {
    failures++;
  }
  latencies.push(performance.now() - scheduledAt);
}

// --- churn: keys created and deleted, APIs added, deleted and reloaded ---
let churnApi = 0;
let churnFailures = 0;
let churning = false;
const churn = async (tick: number): Promise<void> => {
  try {
    keys.push(await createKey());
    const oldest = keys.shift()!;
    await admin('DELETE', `/gw/keys/${encodeURIComponent(oldest)}`);
    if (tick % apiChurnSeconds === 0) {
      const id = `churn-${++churnApi}`;
      const template = `${RESHAPE_TEMPLATE.slice(0, -1)},"edit":${churnApi}}`;
      await admin('POST', '/gw/apis', {
        name: id,
        api_id: id,
        use_keyless: true,
        proxy: proxy(id),
        extended_paths: {
          transform: [
            {
              path: '/',
              method: 'POST',
              template_data: { input_type: 'json', template_mode: 'blob', template_source: Buffer.from(template).toString('base64') },
            },
          ],
        },
      });
      if (churnApi > 1) await admin('DELETE', `/gw/apis/churn-${churnApi - 1}`);
      await admin('GET', '/gw/reload?block=true');
      for (let i = 0; i < 3; i++) {
        const response = await request(`${gw}/${id}/`, { method: 'POST', dispatcher, headers: { 'content-type': 'application/json' }, body: jsonBody });
        await response.body.dump();
        if (response.statusCode !== 200) throw new Error(`${id}: ${response.statusCode}`);
      }
    }
  } catch (error) {
    churnFailures++;
    if (churnFailures <= 3) process.stderr.write(`churn: ${(error as Error).message}\n`);
  }
};

// --- sampling ---
interface Sample {
  minute: number;
  p50: number;
  p99: number;
  rssMb: number;
  requests: number;
  /** /metrics: its size, and how long it took to answer. */
  metricsKb: number;
  metricsMs: number;
  /** A heap snapshot paused the gateway (and this loop) during this minute: its latencies are the pause's. */
  snapshot?: boolean;
}
const scrape = async (): Promise<{ metricsKb: number; metricsMs: number }> => {
  const startedAt = performance.now();
  const text = await (await request(`${gw}/metrics`, { dispatcher })).body.text();
  return { metricsKb: Math.round(text.length / 1024), metricsMs: performance.now() - startedAt };
};
const samples: Sample[] = [];
const quantile = (xs: number[], q: number): number =>
  xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const snapshot = async (label: string): Promise<void> => {
  if (!values.snapshots) return;
  const before = new Set(readdirSync(work));
  gwProcess.kill('SIGUSR2');
  const written = (): string | undefined => readdirSync(work).find((f) => !before.has(f) && f.endsWith('.heapsnapshot'));
  for (let i = 0; i < 600 && !written(); i++) await sleep(100);
  // The file appears before it is complete: done once its size has held for 2 s.
  const file = join(work, written() ?? 'none');
  for (let size = -1, i = 0; i < 300 && existsSync(file) && statSync(file).size !== size; i++) {
    size = statSync(file).size;
    await sleep(2_000);
  }
  process.stderr.write(`heap snapshot (${label}): ${file}\n`);
};

process.stderr.write(
  `bench/soak: ${minutes} min at ${rate} req/s (keyless, token + limits on Redis, JWT RS256, 1 KiB body transform) with key and API churn; gw pid ${gwProcess.pid}\n`,
);
const intervalMs = 1000 / rate;
const startedAt = performance.now();
let nextMinute = 1;
let nextChurn = 1;
for (let i = 0; ; i++) {
  const scheduledAt = startedAt + i * intervalMs;
  const elapsed = scheduledAt - startedAt;
  if (elapsed >= minutes * 60_000) break;
  const wait = scheduledAt - performance.now();
  if (wait > 1) await sleep(wait);
  // One churn at a time: on a slow machine a tick may take longer than a second (a tick is skipped then).
  if (elapsed >= nextChurn * 1000) {
    const tick = nextChurn++;
    if (!churning) {
      churning = true;
      void churn(tick).finally(() => (churning = false));
    }
  }
  if (elapsed >= nextMinute * 60_000) {
    const sample: Sample = {
      minute: nextMinute,
      ...(values.snapshots && nextMinute === 2 ? { snapshot: true } : {}),
      p50: quantile(latencies, 0.5),
      p99: quantile(latencies, 0.99),
      rssMb: treeMemoryMb(gwProcess.pid!),
      requests: latencies.length,
      ...(await scrape()),
    };
    samples.push(sample);
    latencies = [];
    process.stderr.write(
      `  minute ${String(sample.minute).padStart(3)}  ${sample.requests} requests  p50 ${sample.p50.toFixed(2)} ms  p99 ${sample.p99.toFixed(2)} ms  RSS ${sample.rssMb} MB  /metrics ${sample.metricsKb} kB  (failures ${failures}, churn failures ${churnFailures})\n`,
    );
    if (nextMinute === 1) await snapshot('after the first minute');
    nextMinute++;
  }
  sent++;
  void fire(scheduledAt, shots[i % shots.length]!());
}
await sleep(2_000); // the last requests answer
samples.push({
  minute: nextMinute,
  p50: quantile(latencies, 0.5),
  p99: quantile(latencies, 0.99),
  rssMb: treeMemoryMb(gwProcess.pid!),
  requests: latencies.length,
  ...(await scrape()),
});
await snapshot('at the end');

/** One row per sample: the value as a bar scaled to the largest. */
function chart(title: string, unit: string, points: number[]): string[] {
  const max = Math.max(...points.filter(Number.isFinite), 1e-9);
  return [
    title,
    ...points.map(
      (v, i) =>
        `  ${String(samples[i]!.minute).padStart(3)} | ${'#'.repeat(Math.round((40 * (Number.isFinite(v) ? v : 0)) / max)).padEnd(40)} ${v.toFixed(unit === 'MB' ? 0 : 2)} ${unit}`,
    ),
  ];
}
const last = samples.at(-1)!;
// The start and the end: the median p99 of the first and of the last three minutes after the warm-up (minute 1: JIT,
// caches, pools), leaving out a minute a heap snapshot paused; one minute's p99 alone moves with the machine.
const clean = samples.filter((s) => s.minute > 1 && !s.snapshot);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const startP99 = median(clean.slice(0, 3).map((s) => s.p99));
const endP99 = median(clean.slice(-3).map((s) => s.p99));
const warm = clean[0] ?? last;
// RSS flat after the warm-up: the median of the last third of the minutes against that of the middle third.
const thirds = Math.max(1, Math.floor(clean.length / 3));
const middleRss = median(clean.slice(thirds, 2 * thirds).map((s) => s.rssMb));
const lastRss = median(clean.slice(-thirds).map((s) => s.rssMb));
console.log(
  [
    `| minute | requests | p50 ms | p99 ms | RSS MB | /metrics kB | /metrics ms |`,
    `|---:|---:|---:|---:|---:|---:|---:|`,
    ...samples.map(
      (s) =>
        `| ${s.minute}${s.snapshot ? ' (heap snapshot)' : ''} | ${s.requests} | ${s.p50.toFixed(2)} | ${s.p99.toFixed(2)} | ${s.rssMb} | ${s.metricsKb} | ${s.metricsMs.toFixed(1)} |`,
    ),
    '',
    ...chart(
      'p99 latency per minute',
      'ms',
      samples.map((s) => s.p99),
    ),
    '',
    ...chart(
      'RSS per minute',
      'MB',
      samples.map((s) => s.rssMb),
    ),
    '',
    `sent ${sent} requests, ${failures} failed; churn: ${churnApi} APIs, ${churnFailures} churn failures`,
    `p99 at the end / at the start (median of the last and of the first three minutes after the warm-up, heap snapshot minutes left out): ${endP99.toFixed(2)} / ${startP99.toFixed(2)} ms = ${(endP99 / startP99).toFixed(2)}x (target <= 1.5x): ${endP99 / startP99 <= 1.5 ? 'met' : 'NOT met'}`,
    `RSS at the end - after the warm-up (minute ${warm.minute}): ${last.rssMb - warm.rssMb} MB`,
    `RSS median of the last third of the minutes - of the middle third: ${lastRss} - ${middleRss} = ${lastRss - middleRss} MB`,
  ].join('\n'),
);
origin.close();
await dispatcher.close();
process.exit(0);

function redisAnswers(port: number): Promise<boolean> {
  return new Promise((resolveAnswer) => {
    const socket = createConnection(port, '127.0.0.1');
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolveAnswer(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolveAnswer(false));
  });
}
