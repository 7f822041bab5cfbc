// Uptime checks on a gateway of 4 worker threads: one worker runs them and the others follow its verdict, so an
// outage fires one HostDown (and one HostUp) per API, not one per worker, and every worker's load balancing skips
// the down target. Requests go out 200 at once, each on its own connection, which the kernel spreads over the
// workers (SO_REUSEPORT). Every step waits on an event or a state, never on time.
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startEventReceiver } from '../../support/event-receiver.ts';
import { namedUpstream, type Upstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

const CLIENTS = 200;

interface ReceivedEvent {
  type: string;
  api_id: string;
  meta: { host: string };
}

describe('uptime checks on 4 workers', () => {
  let gw: RunningGateway;
  let a: Upstream;
  let b: Upstream;
  let events: ReceivedEvent[] = [];
  const hostOf = (upstream: Upstream): string => `127.0.0.1:${upstream.port}`;
  const received = (type: string, upstream: Upstream): ReceivedEvent[] => events.filter((e) => e.type === type && e.meta.host === hostOf(upstream));
  /** Which upstream answers each of 200 requests sent at once, each on a connection of its own. */
  const answers = (): Promise<string[]> =>
    Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        const response = await request(`${gw.url}/checked/x`, { reset: true });
        const text = await response.body.text();
        return response.statusCode === 200 ? (JSON.parse(text) as { upstream: string }).upstream : `${response.statusCode}`;
      }),
    );

  beforeAll(async () => {
    [a, b] = await Promise.all([namedUpstream('a'), namedUpstream('b')]);
    const receiver = await startEventReceiver<ReceivedEvent>();
    events = receiver.events;
    gw = await startGateway(
      {
        uptime_tests: { config: { time_wait: 0.1, failure_trigger_sample_size: 2 } },
        event_webhooks: [{ url: receiver.url, events: ['HostDown', 'HostUp'] }],
      },
      { env: { GW_GATEWAY_WORKERS: '4' } },
    );
    const api = classicApi('checked', '/checked', a.url, {
      use_keyless: true,
      proxy: {
        listen_path: '/checked',
        strip_listen_path: true,
        enable_load_balancing: true,
        target_list: [a.url, b.url],
        check_host_against_uptime_tests: true,
      },
      uptime_tests: { check_list: [{ url: `${a.url}/health` }, { url: `${b.url}/health` }] },
    });
    expect((await gw.admin('POST', '/gw/apis', api)).status).toBe(200);
    await gw.reload();
    await waitUntil('the gateway to say it runs 4 workers', () => gw.output().includes('"workers":4'));
    await waitUntil('the first checks of both hosts', () => a.requests.some((r) => r.url === '/health') && b.requests.some((r) => r.url === '/health'));
  });

  it('an outage fires one HostDown and one HostUp, and every worker skips the down target meanwhile', async () => {
    expect(new Set(await answers())).toEqual(new Set(['a', 'b']));
    await b.close();
    await waitUntil('HostDown for b', () => received('HostDown', b).length > 0);
    await waitUntil('every worker to send all 200 requests to a', async () => (await answers()).every((name) => name === 'a'));
    b = await namedUpstream('b', b.port);
    await waitUntil('HostUp for b', () => received('HostUp', b).length > 0);
    await waitUntil('every worker to serve b again', async () => (await answers()).includes('b'));
    expect(received('HostDown', b)).toHaveLength(1);
    expect(received('HostUp', b)).toHaveLength(1);
    expect(received('HostDown', a)).toHaveLength(0);
  });
});
