// The header transform steps through the in-process pipeline: the request's edits are what the upstream receives,
// the response's are what the client receives; global_headers apply to every endpoint of the version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicDefinition, PipelineHarness } from '../../../../test/support/pipeline-harness.ts';

describe('header transform steps', () => {
  let harness: PipelineHarness;
  beforeAll(async () => {
    harness = await PipelineHarness.start({
      apis: [
        classicDefinition('headers', {
          version_data: {
            not_versioned: true,
            versions: { Default: { name: 'Default', global_headers: { 'X-Env': 'prod' }, global_headers_remove: ['X-Secret'] } },
          },
          extended_paths: {
            transform_headers: [{ path: '/users/{id}', method: 'GET', delete_headers: ['X-Drop-Me'], add_headers: { 'X-Plain': 'fixed' } }],
            transform_response_headers: [{ path: '/users/{id}', method: 'GET', delete_headers: ['X-Upstream-Secret'], add_headers: { 'X-Served': 'yes' } }],
          },
        }),
      ],
      upstream: () => ({ headers: { 'x-upstream-secret': 's3', 'x-kept': 'k' } }),
    });
  });
  afterAll(() => harness.close());

  it("edits the matching endpoint's request and response headers", async () => {
    const answer = await harness.request({ path: '/headers/users/7', headers: { 'x-drop-me': '1', 'x-keep-me': '2' } });
    expect(answer.upstream?.headers).toMatchObject({ 'x-plain': 'fixed', 'x-keep-me': '2' });
    expect(answer.upstream?.headers['x-drop-me']).toBeUndefined();
    expect(answer.headers).toMatchObject({ 'x-served': 'yes', 'x-kept': 'k' });
    expect(answer.headers['x-upstream-secret']).toBeUndefined();
  });

  it('leaves other endpoints alone, except for the global headers', async () => {
    const answer = await harness.request({ path: '/headers/other', headers: { 'x-drop-me': '1', 'x-secret': 'hush' } });
    expect(answer.upstream?.headers).toMatchObject({ 'x-drop-me': '1', 'x-env': 'prod' });
    expect(answer.upstream?.headers['x-secret']).toBeUndefined();
    expect(answer.headers['x-upstream-secret']).toBe('s3');
  });
});
