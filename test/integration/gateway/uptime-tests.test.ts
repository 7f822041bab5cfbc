// Uptime tests through a real gateway process, real upstreams the test stops and starts, and a real webhook
// receiver: the gateway checks each API's check_list (Classic uptime_tests, OAS upstream.uptimeTests); a stopped
// upstream is announced by HostDown (through event_webhooks) and load balancing with check_host_against_uptime_tests
// (OAS skipUnavailableHosts) then skips it; every target down answers Tyk's 503 `all hosts are down`; a restarted
// upstream is announced by HostUp and served again. Every step waits on the event, never on time.
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startEventReceiver } from '../../support/event-receiver.ts';
import { namedUpstream, type Upstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

interface ReceivedEvent {
  type: string;
  api_id: string;
  message: string;
  meta: { host: string; url: string };
}

describe('uptime tests', () => {
  let gw: RunningGateway;
  let a: Upstream;
  let b: Upstream;
  let events: ReceivedEvent[] = [];
  const hostOf = (upstream: Upstream): string => `127.0.0.1:${upstream.port}`;
  const announced = (type: string, upstream: Upstream, apiId: string): Promise<ReceivedEvent> =>
    waitUntil(`${type} for ${hostOf(upstream)} (${apiId})`, () =>
      events.find((e) => e.type === type && e.meta.host === hostOf(upstream) && e.api_id === apiId),
    );
  const answers = async (path: string, count: number): Promise<string[]> => {
    const names: string[] = [];
    for (let i = 0; i < count; i++) {
      const result = await gw.call(path);
      names.push(result.status === 200 ? result.json<{ upstream: string }>().upstream : `${result.status} ${result.text}`);
    }
    return names;
  };

  beforeAll(async () => {
    [a, b] = await Promise.all([namedUpstream('a'), namedUpstream('b')]);
    const receiver = await startEventReceiver<ReceivedEvent>();
    events = receiver.events;
    gw = await startGateway({
      uptime_tests: { config: { time_wait: 0.1, failure_trigger_sample_size: 2 } },
      event_webhooks: [{ url: receiver.url, events: ['HostDown', 'HostUp'] }],
    });
    const classic = classicApi('checked', '/checked', a.url, {
      use_keyless: true,
      proxy: {
        listen_path: '/checked',
        strip_listen_path: true,
        enable_load_balancing: true,
        target_list: [a.url, b.url],
        check_host_against_uptime_tests: true,
      },
      uptime_tests: { check_list: [{ url: `${a.url}/health` }, { url: `${b.url}/health`, method: 'HEAD', headers: { 'x-check': 'uptime' } }] },
    });
    const oas = {
      openapi: '3.0.3',
      info: { title: 'checked-oas', version: '1' },
      paths: {},
      'x-gw-api-gateway': {
        info: { id: 'checked-oas', name: 'checked-oas', state: { active: true } },
        server: { listenPath: { value: '/checked-oas', strip: true } },
        upstream: {
          url: a.url,
          loadBalancing: {
            enabled: true,
            skipUnavailableHosts: true,
            targets: [
              { url: a.url, weight: 1 },
              { url: b.url, weight: 1 },
            ],
          },
          uptimeTests: { enabled: true, tests: [{ url: `${b.url}/health`, timeout: '2s' }] },
        },
      },
    };
    expect((await gw.admin('POST', '/gw/apis', classic)).status).toBe(200);
    expect((await gw.admin('POST', '/gw/apis/oas', oas)).status).toBe(200);
    await gw.reload();
    await waitUntil('the first checks of both hosts', () => a.requests.some((r) => r.url === '/health') && b.requests.some((r) => r.url === '/health'));
  });

  it('sends the configured checks (method, headers)', () => {
    const check = b.requests.find((r) => r.url === '/health' && r.method === 'HEAD')!;
    expect(check.headers['x-check']).toBe('uptime');
    expect(check.headers.connection).toBe('close');
  });

  it('a stopped upstream fires HostDown for each API checking it, and load balancing skips it', async () => {
    expect((await answers('/checked/x', 2)).sort()).toEqual(['a', 'b']);
    await b.close();
    const down = await announced('HostDown', b, 'checked');
    expect(down.message).toBe('Uptime test failed');
    await announced('HostDown', b, 'checked-oas');
    expect(await answers('/checked/x', 3)).toEqual(['a', 'a', 'a']);
    expect(await answers('/checked-oas/x', 3)).toEqual(['a', 'a', 'a']);
  });

  it("every target down: Tyk's 503 `all hosts are down`, plain text", async () => {
    await a.close();
    await announced('HostDown', a, 'checked');
    const result = await gw.call('/checked/x');
    expect(result.status).toBe(503);
    expect(result.text).toBe('all hosts are down');
    expect(result.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('a restarted upstream fires HostUp and is served again', async () => {
    b = await namedUpstream('b', b.port);
    const up = await announced('HostUp', b, 'checked');
    expect(up.message).toBe('Uptime test succeeded');
    expect(await answers('/checked/x', 2)).toEqual(['b', 'b']);
  });
});
