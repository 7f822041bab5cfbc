// The JSON Schema validation step through the in-process pipeline: a Classic validate_json rule refuses a body
// that does not match with 422 and Tyk's `payload validation failed` message, a body that is not JSON with 400,
// and forwards a valid body to the upstream unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicDefinition, PipelineHarness } from '../../../../test/support/pipeline-harness.ts';

describe('validate JSON step', () => {
  let harness: PipelineHarness;
  beforeAll(async () => {
    harness = await PipelineHarness.start({
      apis: [
        classicDefinition('schema', {
          extended_paths: {
            validate_json: [{ path: '/items', method: 'POST', schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } }],
          },
        }),
      ],
    });
  });
  afterAll(() => harness.close());

  const post = (body: string) => harness.request({ method: 'POST', path: '/schema/items', headers: { 'content-type': 'application/json' }, body });

  it('forwards a valid body unchanged', async () => {
    const answer = await post('{"name":"widget"}');
    expect(answer.status).toBe(200);
    expect(answer.upstream?.body).toBe('{"name":"widget"}');
  });

  it('refuses a body that does not match the schema with 422, naming the field', async () => {
    const refused = await post('{"name":7}');
    expect(refused.status).toBe(422);
    expect((JSON.parse(refused.body) as { error: string }).error).toMatch(/^payload validation failed: name: /);
    expect(refused.upstream).toBeUndefined();
  });

  it('refuses a body that is not JSON with 400 JSON parsing error', async () => {
    const refused = await post('{"name":');
    expect(refused.status).toBe(400);
    expect((JSON.parse(refused.body) as { error: string }).error).toMatch(/^JSON parsing error/);
  });
});
