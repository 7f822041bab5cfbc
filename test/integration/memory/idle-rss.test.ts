// Idle resident memory of the dashboard and the governance hub (issue 10 item 12): on PostgreSQL at most 150 MB;
// on PGlite, which used to idle at ~520 MB (PostgreSQL's TurboFan-compiled WebAssembly, a 128 MB buffer pool and
// the initdb instance left for the garbage collector), at most 300 MB on a first start. Measured over the process
// tree (bin/gw may run Node as a child); the test waits, within a deadline, until the service is under its bound.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startDashboard } from '../../support/dashboard.ts';
import { ENGINES, useDatabases, type Engine } from '../../support/postgres.ts';
import { treeMemoryMb } from '../../support/process-memory.ts';
import { startHub } from '../governance/hub-process.ts';

const BOUND_MB: Record<Engine, number> = { postgres: 150, pglite: 300 };

/** The lowest RSS seen while waiting (until it is under `bound`, or the deadline). */
async function settledRss(pid: number, bound: number): Promise<number> {
  const deadline = Date.now() + 20_000;
  let lowest = treeMemoryMb(pid);
  while (lowest > bound && Date.now() < deadline) {
    await sleep(250);
    lowest = Math.min(lowest, treeMemoryMb(pid));
  }
  return lowest;
}

describe.each(ENGINES)('idle RSS on %s', (engine) => {
  const db = useDatabases(engine);

  it(`dashboard idles within ${BOUND_MB[engine]} MB`, async () => {
    const dashboard = await startDashboard(db.config());
    expect(await settledRss(dashboard.pid(), BOUND_MB[engine])).toBeLessThanOrEqual(BOUND_MB[engine]);
  });

  it(`governance hub idles within ${BOUND_MB[engine]} MB`, async () => {
    const hub = await startHub(db.config());
    expect(await settledRss(hub.pid(), BOUND_MB[engine])).toBeLessThanOrEqual(BOUND_MB[engine]);
  });
});
