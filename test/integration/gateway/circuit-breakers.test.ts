// Circuit breakers (Classic extended_paths.circuit_breakers) through a real gateway process in front of a real
// upstream that fails on demand: the breaker trips once the error ratio over the last `samples` answers reaches the
// threshold, answers 503 `Service temporarily unavailable.` without calling the upstream while open, lets a trial
// request through after return_to_service_after and closes when it succeeds; BreakerTripped / BreakerReset (and
// Tyk's BreakerTriggered) reach the event webhook. No assertion measures a duration: the tests wait on
// what the gateway answers.
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, errorBody, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

interface EventBody {
  type: string;
  message: string;
  api_id: string;
  path: string;
  meta?: Record<string, unknown>;
}

describe('circuit breakers', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  let hooks: Upstream;
  let failing = true;
  const events = (type: string): EventBody[] => hooks.requests.map((r) => JSON.parse(r.body) as EventBody).filter((e) => e.type === type);
  const upstreamCalls = (path: string): number => upstream.requests.filter((r) => r.url.startsWith(path)).length;

  beforeAll(async () => {
    [upstream, hooks] = await Promise.all([
      startUpstream((req, res) => {
        if (!failing || !req.url?.startsWith('/flaky')) return false;
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('upstream broken');
        return true;
      }),
      startUpstream(),
    ]);
    gw = await startGateway({ event_webhooks: [{ url: `${hooks.url}/events`, events: ['BreakerTriggered', 'BreakerTripped', 'BreakerReset'] }] });
    const api = classicApi('breaker', '/breaker', upstream.url, {
      use_keyless: true,
      extended_paths: { circuit_breakers: [{ path: '/flaky', method: 'GET', threshold_percent: 0.5, samples: 4, return_to_service_after: 1 }] },
    });
    const created = await gw.admin('POST', '/gw/apis', api);
    expect(created.status, created.text).toBe(200);
    const oas = {
      openapi: '3.0.3',
      info: { title: 'oas breaker', version: '1' },
      paths: { '/flaky-oas': { get: { operationId: 'flaky', responses: {} } } },
      'x-gw-api-gateway': {
        info: { id: 'oas-breaker', name: 'oas breaker', state: { active: true } },
        upstream: { url: upstream.url },
        server: { listenPath: { value: '/oas-breaker', strip: true } },
        middleware: { operations: { flaky: { circuitBreaker: { enabled: true, threshold: 1, sampleSize: 1, coolDownPeriod: 3600 } } } },
      },
    };
    const oasCreated = await gw.admin('POST', '/gw/apis/oas', oas);
    expect(oasCreated.status, oasCreated.text).toBe(200);
    await gw.reload();
  });

  it('opens once half of the last 4 answers failed, answers 503 without calling the upstream, and closes after a successful trial', async () => {
    // Three successes, then failures: the ratio reaches 0.5 at the second failure of the last four answers.
    failing = false;
    for (let i = 0; i < 3; i++) expect((await gw.call('/breaker/flaky')).status).toBe(200);
    failing = true;
    expect((await gw.call('/breaker/flaky')).status).toBe(500); // 1 of the last 4 failed: still closed
    expect((await gw.call('/breaker/flaky')).status).toBe(500); // 2 of 4: trips
    const calls = upstreamCalls('/flaky');
    const refused = await gw.call('/breaker/flaky');
    expect(refused.status).toBe(503);
    expect(refused.text).toBe(errorBody('Service temporarily unavailable.'));
    expect(upstreamCalls('/flaky')).toBe(calls);
    // Other endpoints and methods of the API are not behind this breaker.
    expect((await gw.call('/breaker/other')).status).toBe(200);
    expect((await gw.call('/breaker/flaky', { method: 'POST', body: 'x' })).status).toBe(500);

    await waitUntil('BreakerTripped event', () => events('BreakerTripped').length === 1);
    expect(events('BreakerTripped')[0]).toMatchObject({ message: 'Breaker Tripped', api_id: 'breaker', path: '/flaky', meta: { circuit_event: 0 } });
    expect(events('BreakerTriggered').map((e) => e.message)).toEqual(['Breaker Tripped']);
    expect(events('BreakerReset')).toHaveLength(0);

    failing = false; // the upstream recovers: once return_to_service_after has passed, the trial request closes it
    await waitUntil('the breaker to let a request through again', async () => (await gw.call('/breaker/flaky')).status === 200);
    for (let i = 0; i < 3; i++) expect((await gw.call('/breaker/flaky')).status).toBe(200);
    await waitUntil('BreakerReset event', () => events('BreakerReset').length === 1);
    expect(events('BreakerReset')[0]).toMatchObject({ message: 'Breaker Reset', api_id: 'breaker', path: '/flaky', meta: { circuit_event: 1 } });
  });

  it('keeps refusing while the trial request fails', async () => {
    failing = true;
    for (let i = 0; i < 4; i++) await gw.call('/breaker/flaky');
    expect((await gw.call('/breaker/flaky')).status).toBe(503);
    const before = upstreamCalls('/flaky');
    // The trial after return_to_service_after reaches the upstream, fails, and the breaker stays open.
    await waitUntil('a trial request to reach the upstream', async () => {
      await gw.call('/breaker/flaky');
      return upstreamCalls('/flaky') > before;
    });
    expect(upstreamCalls('/flaky')).toBe(before + 1);
    expect((await gw.call('/breaker/flaky')).status).toBe(503);
    failing = false;
  });

  it('reads the OAS form (operations.<id>.circuitBreaker: threshold, sampleSize, coolDownPeriod)', async () => {
    failing = true;
    expect((await gw.call('/oas-breaker/flaky-oas')).status).toBe(500);
    const refused = await gw.call('/oas-breaker/flaky-oas');
    expect(refused.status).toBe(503);
    expect(refused.text).toBe(errorBody('Service temporarily unavailable.'));
    expect(upstreamCalls('/flaky-oas')).toBe(1);
    failing = false;
  });
});
