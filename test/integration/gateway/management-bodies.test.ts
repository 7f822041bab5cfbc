// Issue 10, item 1: a management write that fails must not take effect. The audit's reproduction: a free-form
// field (config_data, meta_data) nested 5 000 deep, a 30 KB body, answered 500 from the journal while the object
// stayed in memory (later list GETs 500, a reload served it, a restart lost it). Now the body is refused with 400
// naming the depth limit before anything is stored, and nothing of it is visible anywhere afterwards.
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

/** `"<field>":{"d":{"d":...1...}}` nested `depth` deep, written as text (no recursion on our side either). */
const deepField = (field: string, depth: number): string => `"${field}":${'{"d":'.repeat(depth)}1${'}'.repeat(depth)}`;
/** A JSON object's text with one more member spliced in before its closing brace. */
const withMember = (body: Record<string, unknown>, member: string): string => `${JSON.stringify(body).slice(0, -1)},${member}}`;

const DEPTH_REFUSAL = /^Request malformed: JSON nested deeper than 100 levels/;

describe('management writes with a body nested 5 000 deep', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway({ enable_hashed_keys_listing: true });
  });

  it('POST /gw/apis answers 400 naming the limit; the list still answers 200 without it, and neither a reload nor a restart serves it', async () => {
    const body = withMember(classicApi('deep', '/deep/', upstream.url, { use_keyless: true }), deepField('config_data', 5000));
    expect(body.length).toBeGreaterThan(30_000);
    const refused = await gw.admin('POST', '/gw/apis', body);
    expect(refused.status).toBe(400);
    expect(refused.json<{ message: string }>().message).toMatch(DEPTH_REFUSAL);

    const list = await gw.admin('GET', '/gw/apis');
    expect(list.status).toBe(200);
    expect(list.json<{ api_id: string }[]>().map((api) => api.api_id)).not.toContain('deep');
    expect((await gw.admin('GET', '/gw/apis/deep')).status).toBe(404);
    await gw.reload();
    expect((await gw.call('/deep/anything')).status).toBe(404);

    await gw.restart();
    expect((await gw.admin('GET', '/gw/apis')).status).toBe(200);
    expect((await gw.admin('GET', '/gw/apis/deep')).status).toBe(404);
    expect((await gw.call('/deep/anything')).status).toBe(404);
  });

  it('POST /gw/policies/{id}, /gw/org/keys/{org} and /gw/keys answer 400 the same way and store nothing', async () => {
    const api = classicApi('open', '/open/', upstream.url);
    expect((await gw.admin('POST', '/gw/apis', api)).status).toBe(200);
    const access = { open: { api_id: 'open', api_name: 'open', versions: ['Default'] } };

    const policy = await gw.admin(
      'POST',
      '/gw/policies/deep-policy',
      withMember({ name: 'deep', rate: 1, per: 1, access_rights: access }, deepField('meta_data', 5000)),
    );
    expect([policy.status, policy.json<{ message: string }>().message]).toEqual([400, expect.stringMatching(DEPTH_REFUSAL)]);
    const org = await gw.admin('POST', '/gw/org/keys/deep-org', withMember({ rate: 1, per: 1 }, deepField('meta_data', 5000)));
    expect([org.status, org.json<{ message: string }>().message]).toEqual([400, expect.stringMatching(DEPTH_REFUSAL)]);
    const key = await gw.admin('POST', '/gw/keys', withMember({ rate: 1, per: 1, access_rights: access }, deepField('meta_data', 5000)));
    expect([key.status, key.json<{ message: string }>().message]).toEqual([400, expect.stringMatching(DEPTH_REFUSAL)]);

    expect((await gw.admin('GET', '/gw/policies')).status).toBe(200);
    expect((await gw.admin('GET', '/gw/policies/deep-policy')).status).toBe(404);
    expect((await gw.admin('GET', '/gw/org/keys/deep-org')).status).toBe(404);
    const keys = await gw.admin('GET', '/gw/keys');
    expect([keys.status, keys.json()]).toEqual([200, { keys: [] }]);
  });

  it('refuses NUL and lone surrogates in any string field with 400 naming the field', async () => {
    const nul = await gw.admin('POST', '/gw/apis', withMember(classicApi('nul', '/nul/', upstream.url), '"config_data":{"note":"a\\u0000b"}'));
    expect([nul.status, nul.json<{ message: string }>().message]).toEqual([
      400,
      'Request malformed: config_data.note: contains a NUL character (\\u0000), which is not allowed',
    ]);
    const surrogate = await gw.admin('POST', '/gw/policies/lone', '{"name":"\\ud800","rate":1,"per":1}');
    expect([surrogate.status, surrogate.json<{ message: string }>().message]).toEqual([
      400,
      'Request malformed: name: contains a lone UTF-16 surrogate (not valid Unicode)',
    ]);
    expect((await gw.admin('GET', '/gw/apis/nul')).status).toBe(404);
    expect((await gw.admin('GET', '/gw/policies/lone')).status).toBe(404);
  });
});
