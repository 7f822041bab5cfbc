// The endpoint lists step through the in-process pipeline: black_list refuses (403 `Requested endpoint is
// forbidden`), a white_list refuses what it does not list, `ignored` skips authentication, and a method_actions
// reply answers without the upstream (Classic mocks).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicDefinition, PipelineHarness } from '../../../../test/support/pipeline-harness.ts';

describe('endpoint lists step', () => {
  let harness: PipelineHarness;
  beforeAll(async () => {
    harness = await PipelineHarness.start({
      apis: [
        classicDefinition('blocked', { extended_paths: { black_list: [{ path: '/admin', method: 'GET' }] } }),
        classicDefinition('listed', {
          use_keyless: false,
          extended_paths: {
            white_list: [{ path: '/pets/{id}', method_actions: { GET: { action: 'no_action' } } }],
            ignored: [{ path: '/health', method_actions: { GET: { action: 'no_action' } } }],
          },
        }),
        classicDefinition('mocked', {
          extended_paths: {
            white_list: [{ path: '/teapot', method_actions: { GET: { action: 'reply', code: 418, data: 'short and stout', headers: { 'x-mock': 'yes' } } } }],
          },
        }),
      ],
    });
  });
  afterAll(() => harness.close());

  it('refuses a black-listed endpoint with 403, other paths pass', async () => {
    const refused = await harness.request({ path: '/blocked/admin' });
    expect([refused.status, JSON.parse(refused.body)]).toEqual([403, { error: 'Requested endpoint is forbidden' }]);
    expect(refused.upstream).toBeUndefined();
    expect((await harness.request({ path: '/blocked/other' })).status).toBe(200);
  });

  it('with a white_list, refuses what it does not list; an ignored endpoint needs no key', async () => {
    expect((await harness.request({ path: '/listed/unlisted' })).status).toBe(403);
    expect((await harness.request({ path: '/listed/pets/7' })).status).toBe(401);
    const health = await harness.request({ path: '/listed/health' });
    expect(health.status).toBe(200);
    expect(health.upstream?.path).toBe('/health');
  });

  it('answers a reply action itself: its code, body and headers; the upstream is never called', async () => {
    const answer = await harness.request({ path: '/mocked/teapot' });
    expect([answer.status, answer.body, answer.headers['x-mock']]).toEqual([418, 'short and stout', 'yes']);
    expect(answer.upstream).toBeUndefined();
  });
});
