// The URL rewrite step through the in-process pipeline: the upstream receives the rewritten path, with the match's
// groups substituted; a request the pattern does not match goes through unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicDefinition, PipelineHarness } from '../../../../test/support/pipeline-harness.ts';

describe('URL rewrite step', () => {
  let harness: PipelineHarness;
  beforeAll(async () => {
    harness = await PipelineHarness.start({
      apis: [
        classicDefinition('rewrite', {
          extended_paths: { url_rewrites: [{ path: '/old/{id}', method: 'GET', match_pattern: '^/old/(\\d+)', rewrite_to: '/v2/items/$1' }] },
        }),
      ],
    });
  });
  afterAll(() => harness.close());

  it('sends the rewritten path, the captured group in place', async () => {
    const answer = await harness.request({ path: '/rewrite/old/42' });
    expect(answer.status).toBe(200);
    expect(answer.upstream?.path).toBe('/v2/items/42');
  });

  it('leaves other paths and methods alone', async () => {
    expect((await harness.request({ path: '/rewrite/old/abc' })).upstream?.path).toBe('/old/abc');
    expect((await harness.request({ method: 'POST', path: '/rewrite/old/42', body: '{}' })).upstream?.path).toBe('/old/42');
  });
});
