// bench/reload: what a reload costs a gateway serving many APIs when one of them changed (issue 26), with the
// compiled APIs of unchanged definitions kept (src/gateway/compiled-apis.ts) against every API compiled again
// (GW_RELOAD_COMPILE_ALL=1, the behaviour before), in the same run on the same store.
//
//   node scripts/node24.mjs node bench/reload.ts [--apis 10000] [--rounds 5] [--workers 1] [--json]
//
// A real `bin/gw gateway` (embedded store, GW_GATEWAY_WORKERS=--workers) gets --apis keyless Classic APIs through
// POST /gw/apis (16 at once), then one reload. Its RSS (the process tree's VmRSS) is read once that load serves. Then
// --rounds times: one API is changed (PUT /gw/apis/<id>, a new listen path) and `GET /gw/reload?block=true` is
// timed, with the CPU the gateway's process tree used meanwhile (/proc utime + stime: threads included), and the
// change is checked through the proxy (the new listen path is routed: not 404). The gateway is then stopped and started again on the same store with
// GW_RELOAD_COMPILE_ALL=1 and the rounds repeated. Medians; the ratio is kept / compile-all.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { REPO_ROOT } from '../src/up/paths.ts';
import { freePort } from '../src/up/ports.ts';
import { treeMemoryMb } from '../test/support/process-memory.ts';
import { treeCpuUs } from './process-cpu.ts';

const SECRET = 'bench-secret';
const { values } = parseArgs({
  options: {
    apis: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '5' },
    workers: { type: 'string', default: '1' },
    json: { type: 'boolean', default: false },
  },
});
const apiCount = Number(values.apis);
const rounds = Number(values.rounds);
const progress = (line: string): boolean => process.stderr.write(`${line}\n`);

const work = mkdtempSync(join(tmpdir(), 'gw-bench-reload-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
writeFileSync(
  join(work, 'gateway.json'),
  JSON.stringify({ listen_address: '127.0.0.1', listen_port: port, secret: SECRET, log_level: 'warn', app_path: join(work, 'apps') }),
);
let child: ChildProcess | undefined;
process.on('exit', () => child?.kill('SIGKILL'));

async function call(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<{ status: number; text: string }> {
  const response = await request(`${base}${path}`, {
    method,
    headers: { 'x-gw-authorization': SECRET, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    headersTimeout: 600_000,
    bodyTimeout: 600_000,
  });
  return { status: response.statusCode, text: await response.body.text() };
}

async function start(env: Record<string, string>): Promise<void> {
  child = spawn(join(REPO_ROOT, 'bin', 'gw'), ['gateway', '--config', join(work, 'gateway.json')], {
    cwd: work,
    env: { ...process.env, GW_GATEWAY_WORKERS: values.workers, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the gateway exited (${child.exitCode})`);
    const ready = await call('GET', '/ready').catch(() => undefined);
    if (ready?.status === 200) return;
    await sleep(200);
  }
}

async function stop(): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolveExit) => child!.once('exit', resolveExit));
  child.kill('SIGTERM');
  await exited;
}

const api = (i: number, listenPath = `/api-${i}/`): Record<string, unknown> => ({
  name: `api-${i}`,
  api_id: `api-${i}`,
  active: true,
  use_keyless: true,
  proxy: { listen_path: listenPath, target_url: 'http://127.0.0.1:9/', strip_listen_path: true },
  version_data: { not_versioned: true, versions: { Default: { name: 'Default', extended_paths: {} } } },
});

async function reloadBlocking(): Promise<void> {
  const answer = await call('GET', '/gw/reload?block=true');
  if (answer.status !== 200) throw new Error(`reload answered ${answer.status} ${answer.text}`);
}

/** Rounds of: change one API, time the blocking reload and the gateway's CPU meanwhile, check the change serves. */
async function measure(label: string, roundOffset: number): Promise<{ wallMs: number; cpuMs: number }> {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const i = (roundOffset + round * 7919) % apiCount;
    const listenPath = `/api-${i}-${label}-${round}/`;
    const written = await call('PUT', `/gw/apis/api-${i}`, api(i, listenPath));
    if (written.status !== 200) throw new Error(`PUT answered ${written.status} ${written.text}`);
    const cpuBefore = treeCpuUs(child!.pid!);
    const began = performance.now();
    await reloadBlocking();
    walls.push(performance.now() - began);
    cpus.push((treeCpuUs(child!.pid!) - cpuBefore) / 1000);
    const served = await call('GET', listenPath);
    if (served.status === 404) throw new Error(`api-${i} is not served on its new listen path`);
    progress(`${label} round ${round + 1}/${rounds}: reload ${walls.at(-1)!.toFixed(0)} ms, CPU ${cpus.at(-1)!.toFixed(0)} ms`);
  }
  return { wallMs: median(walls), cpuMs: median(cpus) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

try {
  await start({});
  progress(`writing ${apiCount} APIs`);
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < apiCount) {
        const i = next++;
        const written = await call('POST', '/gw/apis', api(i));
        if (written.status !== 200) throw new Error(`POST answered ${written.status} ${written.text}`);
      }
    }),
  );
  await reloadBlocking();
  await sleep(2000); // the first load's garbage collected, mostly
  const rssMb = treeMemoryMb(child!.pid!);
  progress(`RSS with ${apiCount} APIs: ${rssMb.toFixed(0)} MB`);
  await reloadBlocking(); // every API compiled once: the next loads keep them
  const kept = await measure('kept', 1);
  await stop();
  await start({ GW_RELOAD_COMPILE_ALL: '1' });
  await reloadBlocking();
  const all = await measure('compile-all', 2);
  await stop();
  const result = {
    apis: apiCount,
    workers: Number(values.workers),
    rounds,
    rssMb: Math.round(rssMb),
    kept,
    compileAll: all,
    wallRatio: kept.wallMs / all.wallMs,
    cpuRatio: kept.cpuMs / all.cpuMs,
  };
  if (values.json) console.log(JSON.stringify(result));
  else {
    console.log(`APIs ${apiCount}, workers ${values.workers}, gateway RSS ${result.rssMb} MB; one API changed, median of ${rounds} reloads:`);
    console.log(`  kept unchanged APIs   reload ${kept.wallMs.toFixed(0)} ms, gateway CPU ${kept.cpuMs.toFixed(0)} ms`);
    console.log(`  compile every API     reload ${all.wallMs.toFixed(0)} ms, gateway CPU ${all.cpuMs.toFixed(0)} ms`);
    console.log(`  ratio (kept / all)    wall ${result.wallRatio.toFixed(3)}, CPU ${result.cpuRatio.toFixed(3)}`);
  }
} finally {
  await stop();
  rmSync(work, { recursive: true, force: true });
}
