// Rate limits, throttling, quotas, organisation quotas, quota monitors, events and metrics, per gw's documented state
// tables and docs/architecture.md §3. Real gateway processes; a real HTTP server receives the event webhooks.
// No assertion measures a duration: each checks what the gateway decided (status, headers, events, counts).
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, http, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

interface EventBody {
  type: string;
  message: string;
  api_id: string;
  key: string;
  meta?: Record<string, unknown>;
}

describe('traffic controls', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  let hooks: Upstream;
  const events = (type: string): EventBody[] => hooks.requests.map((r) => JSON.parse(r.body) as EventBody).filter((e) => e.type === type);

  beforeAll(async () => {
    [upstream, hooks] = await Promise.all([startUpstream(), startUpstream()]);
    gw = await startGateway({
      event_webhooks: [{ url: `${hooks.url}/events`, events: ['RateLimitExceeded', 'QuotaExceeded', 'TriggerExceeded'] }],
      monitor: { enable_trigger_monitors: true, global_trigger_limit: 50, monitor_user_keys: true },
    });
    for (const api of [
      classicApi('limited', '/limited', upstream.url),
      classicApi('no-quota', '/no-quota', upstream.url, { disable_quota: true }),
      classicApi('keep-quota', '/keep-quota', upstream.url, { dont_set_quota_on_create: true }),
      classicApi('api-wide', '/api-wide', upstream.url, { use_keyless: true, global_rate_limit: { rate: 2, per: 60 } }),
    ]) {
      expect((await gw.admin('POST', '/gw/apis', api)).status).toBe(200);
    }
    await gw.reload();
  });

  const get = (path: string, key?: string) => gw.call(path, { headers: key ? { authorization: key } : {} });

  describe('rate limit (rolling window)', () => {
    it('passes `rate` requests per `per` seconds, then 429 with Retry-After and a RateLimitExceeded event', async () => {
      const key = await addKey(gw, ['limited'], { rate: 3, per: 2 });
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await get('/limited/x', key)).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const refused = await get('/limited/x', key);
      expect(refused.text).toBe('{\n    "error": "Rate Limit Exceeded"\n}');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(2);
      await expect.poll(() => events('RateLimitExceeded').filter((e) => e.key === `****${key.slice(-4)}`).length).toBeGreaterThanOrEqual(3);
      const event = events('RateLimitExceeded').find((e) => e.key.endsWith(key.slice(-4)))!;
      expect(event).toMatchObject({ api_id: 'limited', message: 'Key rate limit exceeded' });
      expect(JSON.stringify(event)).not.toContain(key); // never the credential itself
    });

    it('does not count rejected requests: a client hammering over its rate gets through once the window has room', async () => {
      const key = await addKey(gw, ['limited'], { rate: 2, per: 1 });
      expect((await get('/limited/hammer', key)).status).toBe(200);
      expect((await get('/limited/hammer', key)).status).toBe(200);
      // Hammer without pause, far above 2 per second. Were rejected requests counted (Tyk's behaviour), the
      // window would never have room and this would time out; ours lets the client through once the two accepted
      // requests leave the window.
      const statuses: number[] = [];
      await waitUntil(
        () => `a request to pass while hammering; statuses so far ${JSON.stringify(statuses.slice(-5))}`,
        async () => {
          statuses.push((await get('/limited/hammer', key)).status);
          return statuses.at(-1) === 200;
        },
        { intervalMs: 0, timeoutMs: 20_000 },
      );
      expect(upstream.requests.filter((r) => r.url === '/hammer')).toHaveLength(3); // rejected ones never reached it
    });
  });

  describe('throttling (queue and retry)', () => {
    it('holds a request over the rate and serves it as soon as the window has room', async () => {
      // 8 retries every 0.25 s span 2 s, twice the 1 s window: the held request must get through.
      const key = await addKey(gw, ['limited'], { rate: 1, per: 1, throttle_interval: 0.25, throttle_retry_limit: 8 });
      expect((await get('/limited/held', key)).status).toBe(200);
      const held = await get('/limited/held', key);
      expect(held.status).toBe(200); // over the rate when it came (the event below), served instead of refused
      await expect
        .poll(() =>
          events('RateLimitExceeded')
            .filter((e) => e.key.endsWith(key.slice(-4)))
            .map((e) => e.meta?.throttled),
        )
        .toEqual([true]);
      expect(upstream.requests.filter((r) => r.url === '/held')).toHaveLength(2);
    });

    it('answers 429 once the retries are spent, not when the window frees', async () => {
      // The window frees after an hour: a gateway holding the request until then would hit the test timeout.
      const key = await addKey(gw, ['limited'], { rate: 1, per: 3600, throttle_interval: 0.2, throttle_retry_limit: 2 });
      expect((await get('/limited/x', key)).status).toBe(200);
      const refused = await get('/limited/x', key);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000); // refused for the window, not for a retry
      await expect
        .poll(() =>
          events('RateLimitExceeded')
            .filter((e) => e.key.endsWith(key.slice(-4)))
            .map((e) => e.meta?.throttled),
        )
        .toEqual([true]);
    });

    it('is off when either setting is below 1 retry or 0 s', async () => {
      for (const throttle of [
        { throttle_interval: -1, throttle_retry_limit: 5 },
        { throttle_interval: 0.2, throttle_retry_limit: 0 },
      ]) {
        const key = await addKey(gw, ['limited'], { rate: 1, per: 30, ...throttle });
        expect((await get('/limited/x', key)).status).toBe(200);
        expect((await get('/limited/x', key)).status).toBe(429);
        // The gateway decided not to throttle: its event says so (a held request would carry throttled: true).
        await expect
          .poll(() =>
            events('RateLimitExceeded')
              .filter((e) => e.key.endsWith(key.slice(-4)))
              .map((e) => e.meta?.throttled),
          )
          .toEqual([false]);
      }
    });
  });

  describe('quota', () => {
    it('lets exactly quota_max through, then 403 `Quota exceeded` with a QuotaExceeded event; X-RateLimit-* count down', async () => {
      const key = await addKey(gw, ['limited'], { quota_max: 3, quota_renewal_rate: 60 });
      const remaining = [];
      for (let i = 0; i < 3; i++) {
        const ok = await get('/limited/x', key);
        expect(ok.status).toBe(200);
        expect(ok.headers['x-ratelimit-limit']).toBe('3');
        remaining.push(ok.headers['x-ratelimit-remaining']);
        expect(Number(ok.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000 + 50);
      }
      expect(remaining).toEqual(['2', '1', '0']);
      const refused = await get('/limited/x', key);
      expect(refused.status).toBe(403);
      expect(refused.text).toBe('{\n    "error": "Quota exceeded"\n}');
      expect(refused.headers['x-ratelimit-remaining']).toBeUndefined();
      await expect.poll(() => events('QuotaExceeded').some((e) => e.key.endsWith(key.slice(-4)))).toBe(true);
      expect((await gw.admin('GET', `/gw/keys/${key}`)).json()).toMatchObject({ quota_max: 3, quota_remaining: 0 });
    });

    it('starts a new period at the first request after quota_renewal_rate seconds, not on a timer', async () => {
      const key = await addKey(gw, ['limited'], { quota_max: 2, quota_renewal_rate: 1 });
      await get('/limited/x', key);
      await get('/limited/x', key);
      expect((await get('/limited/x', key)).status).toBe(403);
      // Refused requests do not count, so asking until one passes is safe; it passes once the period has ended.
      const renewed = await waitUntil(
        'the quota period to renew',
        async () => {
          const answer = await get('/limited/x', key);
          return answer.status === 200 ? answer : (expect(answer.status).toBe(403), undefined);
        },
        { intervalMs: 100, timeoutMs: 20_000 },
      );
      expect(renewed.headers['x-ratelimit-remaining']).toBe('1');
    });

    it('resets on a key update unless suppress_reset=1, and not for APIs with dont_set_quota_on_create', async () => {
      const session = { access_rights: { limited: { api_id: 'limited' } }, quota_max: 1, quota_renewal_rate: 3600 };
      const key = (await gw.admin('POST', '/gw/keys/create', session)).json<{ key: string }>().key;
      await get('/limited/x', key);
      expect((await get('/limited/x', key)).status).toBe(403);
      await gw.admin('PUT', `/gw/keys/${key}?suppress_reset=1`, session);
      expect((await get('/limited/x', key)).status).toBe(403);
      await gw.admin('PUT', `/gw/keys/${key}`, session);
      expect((await get('/limited/x', key)).status).toBe(200);

      const keeping = { access_rights: { 'keep-quota': { api_id: 'keep-quota' } }, quota_max: 1, quota_renewal_rate: 3600 };
      const kept = (await gw.admin('POST', '/gw/keys/create', keeping)).json<{ key: string }>().key;
      await get('/keep-quota/x', kept);
      await gw.admin('PUT', `/gw/keys/${kept}`, keeping);
      expect((await get('/keep-quota/x', kept)).status).toBe(403);
    });

    it('is not enforced on an API with disable_quota', async () => {
      const key = await addKey(gw, ['no-quota'], { quota_max: 1, quota_renewal_rate: 3600 });
      for (let i = 0; i < 3; i++) expect((await get('/no-quota/x', key)).status).toBe(200);
    });

    it('raises TriggerExceeded once, when usage reaches global_trigger_limit percent', async () => {
      const key = await addKey(gw, ['limited'], { quota_max: 4, quota_renewal_rate: 3600 });
      for (let i = 0; i < 4; i++) await get('/limited/x', key);
      await expect.poll(() => events('TriggerExceeded').filter((e) => e.key.endsWith(key.slice(-4))).length).toBe(1);
      expect(events('TriggerExceeded').find((e) => e.key.endsWith(key.slice(-4)))?.meta).toMatchObject({ quota_max: 4, used: 2 });
    });
  });

  it('limits an API as a whole with global_rate_limit: 429 `API Rate Limit Exceeded`', async () => {
    expect((await get('/api-wide/x')).status).toBe(200);
    expect((await get('/api-wide/x')).status).toBe(200);
    const refused = await get('/api-wide/x');
    expect(refused.status).toBe(429);
    expect(refused.text).toBe('{\n    "error": "API Rate Limit Exceeded"\n}');
  });

  it('exports request counts by API and status, and throttled requests per second, to Prometheus', async () => {
    const metrics = await http(`${gw.controlUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/gw_requests_total\{api_id="limited",code="200"\} \d+/);
    expect(metrics.text).toMatch(/gw_requests_total\{api_id="limited",code="429"\} \d+/);
    expect(metrics.text).toMatch(/gw_requests_total\{api_id="limited",code="403"\} \d+/);
    expect(metrics.text).toMatch(/gw_events_total\{type="QuotaExceeded"\} \d+/);
    expect(metrics.text).toContain('gw_throttled_requests_per_second');
    expect(metrics.text).toMatch(/gw_apis_loaded \d+/);
  });
});

describe('rate limit headers and organisation quotas', () => {
  it('reports the rate limit in X-RateLimit-* when rate_limit_response_headers is rate_limits, also on 429', async () => {
    const upstream = await startUpstream();
    const gw = await startGateway({ rate_limit_response_headers: 'rate_limits' });
    await gw.admin('POST', '/gw/apis', classicApi('r', '/r', upstream.url));
    await gw.reload();
    const key = await addKey(gw, ['r'], { rate: 2, per: 10, quota_max: 100, quota_renewal_rate: 60 });
    const first = await gw.call('/r/x', { headers: { authorization: key } });
    expect([first.headers['x-ratelimit-limit'], first.headers['x-ratelimit-remaining']]).toEqual(['2', '1']);
    await gw.call('/r/x', { headers: { authorization: key } });
    const refused = await gw.call('/r/x', { headers: { authorization: key } });
    expect(refused.status).toBe(429);
    expect([refused.headers['x-ratelimit-limit'], refused.headers['x-ratelimit-remaining']]).toEqual(['2', '0']);
  });

  it('enforces organisation quotas and access with enforce_org_quotas, and monitors them', async () => {
    const [upstream, hooks] = await Promise.all([startUpstream(), startUpstream()]);
    const gw = await startGateway({
      enforce_org_quotas: true,
      monitor: { enable_trigger_monitors: true, global_trigger_limit: 50, monitor_org_keys: true },
      event_webhooks: [{ url: hooks.url, events: ['TriggerExceeded', 'QuotaExceeded'] }],
    });
    await gw.admin('POST', '/gw/apis', classicApi('org-api', '/org-api', upstream.url, { use_keyless: true, org_id: 'acme' }));
    await gw.reload();
    expect((await gw.admin('POST', '/gw/org/keys/acme', { quota_max: 2, quota_renewal_rate: 3600 })).json()).toMatchObject({ key: 'acme', action: 'added' });
    expect((await gw.call('/org-api/x')).status).toBe(200);
    expect((await gw.call('/org-api/x')).status).toBe(200);
    const refused = await gw.call('/org-api/x');
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('This organisation quota has been exceeded, please contact your API administrator');
    const received = () => hooks.requests.map((r) => JSON.parse(r.body) as EventBody);
    await expect
      .poll(() =>
        received()
          .map((e) => `${e.type}:${String(e.meta?.scope)}`)
          .sort(),
      )
      .toEqual(['QuotaExceeded:org', 'TriggerExceeded:org']);
    await gw.admin('PUT', '/gw/org/keys/acme?reset_quota=1', { quota_max: 2, quota_renewal_rate: 3600 });
    expect((await gw.call('/org-api/x')).status).toBe(200);
    await gw.admin('PUT', '/gw/org/keys/acme', { is_inactive: true });
    expect((await gw.call('/org-api/x')).text).toContain('this organisation access has been disabled, please contact your API administrator');
    expect((await gw.admin('GET', '/gw/org/keys')).json()).toEqual({ keys: ['acme'] });
  });
});
