// The auth token step through the in-process pipeline (test/support/pipeline-harness.ts): which credential a
// request must carry, where it may carry it, and what the upstream then receives. Tyk Gateway's codes and messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicDefinition, PipelineHarness, type HarnessRequest } from '../../../../test/support/pipeline-harness.ts';

describe('auth token step', () => {
  let harness: PipelineHarness;
  beforeAll(async () => {
    harness = await PipelineHarness.start({
      apis: [
        classicDefinition('tokens', {
          use_keyless: false,
          auth_configs: { authToken: { auth_header_name: 'X-Api-Key', use_param: true, param_name: 'key', use_cookie: true, cookie_name: 'session' } },
        }),
        classicDefinition('stripped', { use_keyless: false, strip_auth_data: true }),
      ],
    });
    const session = { access_rights: { tokens: { api_id: 'tokens', versions: [] }, stripped: { api_id: 'stripped', versions: [] } } };
    await harness.addKey('good-key-0001', session);
    await harness.addKey('idle-key-0001', { ...session, is_inactive: true });
  });
  afterAll(() => harness.close());

  it('refuses a request without a credential: 401 Authorization field missing, the upstream never called', async () => {
    const answer = await harness.request({ path: '/tokens/x' });
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toEqual({ error: 'Authorization field missing' });
    expect(answer.upstream).toBeUndefined();
  });

  it('refuses an unknown key with 403 and an inactive one with its own message', async () => {
    const unknown = await harness.request({ path: '/tokens/x', headers: { 'x-api-key': 'no-such-key-01' } });
    expect(unknown.status).toBe(403);
    expect(JSON.parse(unknown.body)).toEqual({ error: 'Access to this API has been disallowed' });
    const idle = await harness.request({ path: '/tokens/x', headers: { 'x-api-key': 'idle-key-0001' } });
    expect(idle.status).toBe(403);
    expect(JSON.parse(idle.body)).toEqual({ error: 'Key is inactive, please renew' });
  });

  it('accepts the key from the configured header, the query parameter or the cookie', async () => {
    const requests: HarnessRequest[] = [
      { path: '/tokens/a', headers: { 'x-api-key': 'good-key-0001' } },
      { path: '/tokens/a?key=good-key-0001' },
      { path: '/tokens/a', headers: { cookie: 'session=good-key-0001' } },
    ];
    for (const request of requests) {
      const answer = await harness.request(request);
      expect(answer.status).toBe(200);
      expect(answer.upstream?.path).toMatch(/^\/a/);
    }
  });

  it('passes the credential on to the upstream, unless strip_auth_data', async () => {
    const kept = await harness.request({ path: '/tokens/a', headers: { 'x-api-key': 'good-key-0001' } });
    expect(kept.upstream?.headers['x-api-key']).toBe('good-key-0001');
    const stripped = await harness.request({ path: '/stripped/a', headers: { authorization: 'good-key-0001' } });
    expect(stripped.status).toBe(200);
    expect(stripped.upstream?.headers.authorization).toBeUndefined();
  });

  it('is timed under its name in gw_step_duration_seconds', async () => {
    const before = await harness.stepRuns('auth-token');
    await harness.request({ path: '/tokens/a', headers: { 'x-api-key': 'good-key-0001' } });
    expect(await harness.stepRuns('auth-token')).toBe(before + 1);
  });
});
