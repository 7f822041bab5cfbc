// The CORS step through the in-process pipeline: a preflight from an allowed origin is answered 204 by the gateway
// with the Access-Control-* headers, before authentication; actual answers (the upstream's and the gateway's
// refusals) carry Access-Control-Allow-Origin for an allowed origin and nothing for another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicDefinition, PipelineHarness } from '../../../../test/support/pipeline-harness.ts';

describe('CORS step', () => {
  let harness: PipelineHarness;
  beforeAll(async () => {
    harness = await PipelineHarness.start({
      apis: [
        classicDefinition('cors', {
          use_keyless: false,
          CORS: { enable: true, allowed_origins: ['https://app.test'], allowed_methods: ['GET', 'POST'], allowed_headers: ['Authorization'], max_age: 600 },
        }),
      ],
    });
  });
  afterAll(() => harness.close());

  it('answers an allowed preflight with 204 itself, before authentication', async () => {
    const answer = await harness.request({
      method: 'OPTIONS',
      path: '/cors/items',
      headers: { origin: 'https://app.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe('https://app.test');
    expect(answer.headers['access-control-allow-methods']).toContain('POST');
    expect(answer.headers['access-control-max-age']).toBe('600');
    expect(answer.upstream).toBeUndefined();
  });

  it("adds Access-Control-Allow-Origin to the gateway's own refusals for an allowed origin, not for another", async () => {
    const allowed = await harness.request({ path: '/cors/items', headers: { origin: 'https://app.test' } });
    expect(allowed.status).toBe(401);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.test');
    const other = await harness.request({ path: '/cors/items', headers: { origin: 'https://evil.test' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});
