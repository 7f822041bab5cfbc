// circuit_breakers[].threshold_percent written as a string ("0.5", as Tyk Operator's CRD types it) through a real
// gateway process and a real upstream that fails: the management API takes the definition and the breaker trips at
// the ratio the string holds; a string that holds no number is refused with 400 naming the field.
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

describe('circuit breaker threshold_percent as text', () => {
  let gw: RunningGateway;
  let upstream: Upstream;

  beforeAll(async () => {
    upstream = await startUpstream((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('upstream broken');
      return true;
    });
    gw = await startGateway();
  });

  it('takes "0.5" and trips at half of the last samples failing', async () => {
    const api = classicApi('text-breaker', '/text-breaker', upstream.url, {
      use_keyless: true,
      extended_paths: { circuit_breakers: [{ path: '/flaky', method: 'GET', threshold_percent: '0.5', samples: 2, return_to_service_after: 3600 }] },
    });
    const created = await gw.admin('POST', '/gw/apis', api);
    expect(created.status, created.text).toBe(200);
    await gw.reload();
    expect((await gw.call('/text-breaker/flaky')).status).toBe(500); // 1 answer seen: fewer than samples
    expect((await gw.call('/text-breaker/flaky')).status).toBe(500); // 2 of 2 failed: trips
    const calls = upstream.requests.length;
    expect((await gw.call('/text-breaker/flaky')).status).toBe(503);
    expect(upstream.requests.length).toBe(calls);
  });

  it('refuses a threshold_percent string that holds no number, naming the field', async () => {
    const api = classicApi('bad-breaker', '/bad-breaker', upstream.url, {
      use_keyless: true,
      extended_paths: { circuit_breakers: [{ path: '/flaky', method: 'GET', threshold_percent: 'half', samples: 2 }] },
    });
    const refused = await gw.admin('POST', '/gw/apis', api);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('threshold_percent');
  });
});
