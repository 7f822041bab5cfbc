// The IP access step through the in-process pipeline: a client outside allowed_ips, or inside blacklisted_ips, is
// answered 403 `access from this IP has been disallowed` (Tyk Gateway's message) before anything else runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicDefinition, PipelineHarness } from '../../../../test/support/pipeline-harness.ts';

describe('IP access step', () => {
  let harness: PipelineHarness;
  beforeAll(async () => {
    harness = await PipelineHarness.start({
      apis: [
        classicDefinition('allow', { enable_ip_whitelisting: true, allowed_ips: ['10.0.0.0/8'] }),
        classicDefinition('block', { enable_ip_blacklisting: true, blacklisted_ips: ['192.0.2.7'] }),
      ],
    });
  });
  afterAll(() => harness.close());

  it('serves an address in the allow list and refuses one outside it', async () => {
    expect((await harness.request({ path: '/allow/a', clientAddress: '10.1.2.3' })).status).toBe(200);
    const refused = await harness.request({ path: '/allow/a', clientAddress: '192.0.2.1' });
    expect([refused.status, JSON.parse(refused.body)]).toEqual([403, { error: 'access from this IP has been disallowed' }]);
    expect(refused.upstream).toBeUndefined();
  });

  it('refuses an address in the block list and serves others', async () => {
    expect((await harness.request({ path: '/block/a', clientAddress: '192.0.2.7' })).status).toBe(403);
    expect((await harness.request({ path: '/block/a', clientAddress: '192.0.2.8' })).status).toBe(200);
  });
});
