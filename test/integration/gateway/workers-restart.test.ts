// A gateway worker thread that dies is restarted while the others serve: a real uncaught exception thrown in a
// worker (SIGUSR2 with GW_DEBUG_WORKER_CRASH=1, a switch for this test only), then requests sent once the primary
// has seen it exit are all answered, an API added while it was gone is served by the restarted one too (it loads
// the current table before it listens), and the restart is counted in gw_gateway_worker_restarts_total. Requests go
// out 200 at once, each on its own connection, which the kernel spreads over the workers (SO_REUSEPORT). A worker
// that keeps dying (a sixth death within a minute) stops the gateway, exit code 1, as a supervisor gives up. The
// delays between restarts start at 10 ms (GW_WORKER_RESTART_BACKOFF_MS) instead of 0.25 s: the rule is tested here,
// the delays in restart-policy.test.ts.
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { addApi, classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

const CLIENTS = 200;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a gateway worker that dies', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  /** The statuses of 200 requests sent at once, each on a connection of its own. */
  const statuses = async (path: string): Promise<Set<number>> =>
    new Set(
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          const response = await request(`${gw.url}${path}`, { reset: true });
          await response.body.dump();
          return response.statusCode;
        }),
      ),
    );
  const logged = (message: string): number => gw.output().split(message).length - 1;

  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway({}, { env: { GW_GATEWAY_WORKERS: '2', GW_DEBUG_WORKER_CRASH: '1', GW_WORKER_RESTART_BACKOFF_MS: '10' } });
    await addApi(gw, classicApi('open', '/open', upstream.url, { use_keyless: true }));
    await waitUntil('the gateway to say it runs 2 workers', () => gw.output().includes('"workers":2'));
  });

  it('is restarted while the other serves, with the current table, and counted', async () => {
    expect(await statuses('/open/x')).toEqual(new Set([200]));
    process.kill(gw.pid()!, 'SIGUSR2');
    await waitUntil('the primary to see the worker exit', () => logged('a gateway worker exited: restarting it') === 1);
    expect(gw.output()).toContain('crash requested (GW_DEBUG_WORKER_CRASH)');
    expect(await statuses('/open/x')).toEqual(new Set([200]));
    await addApi(gw, classicApi('later', '/later', upstream.url, { use_keyless: true }));
    await waitUntil('the worker to be restarted', () => logged('gateway worker restarted') === 1);
    expect(await statuses('/later/x')).toEqual(new Set([200]));
    expect(await statuses('/open/x')).toEqual(new Set([200]));
    expect((await gw.call('/metrics')).text).toMatch(/^gw_gateway_worker_restarts_total 1$/m);
  });

  it('stops the gateway (exit 1) at the sixth death within a minute', async () => {
    for (let death = 2; death <= 5; death++) {
      process.kill(gw.pid()!, 'SIGUSR2');
      await waitUntil(`restart ${death}`, () => logged('gateway worker restarted') === death);
    }
    expect((await gw.call('/metrics')).text).toMatch(/^gw_gateway_worker_restarts_total 5$/m);
    const pid = gw.pid()!;
    process.kill(pid, 'SIGUSR2');
    await waitUntil('the gateway to give up', () => logged('gateway workers keep dying: stopping the gateway') === 1);
    await waitUntil('the gateway process to exit', () => !alive(pid));
    expect(await gw.stop()).toBe(1);
  });
});
