// Organisation sessions (/gw/org/keys, stored as `org/<org_id>`) are not client keys: with hash_keys off, a client
// presenting the token `org/<org_id>` must not be served by the organisation's session, nor can the key routes
// read, change or delete it; the organisation's limits still apply to its APIs. A real gateway process.
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, errorBody, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

describe('organisation sessions live apart from client keys', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway({ hash_keys: false, enforce_org_quotas: true });
    expect((await gw.admin('POST', '/gw/apis', classicApi('acme-api', '/acme', upstream.url, { org_id: 'acme' }))).status).toBe(200);
    await gw.reload();
    // An organisation session that carries access rights (the Session schema allows them): as a key it would open the API.
    const org = { access_rights: { 'acme-api': { api_id: 'acme-api', versions: [] } }, quota_max: 3, quota_renewal_rate: 3600 };
    expect((await gw.admin('POST', '/gw/org/keys/acme', org)).status).toBe(200);
  });

  it('refuses the token org/<org_id> as an unknown key, and forwards nothing', async () => {
    const before = upstream.requests.length;
    const answer = await gw.call('/acme/x', { headers: { authorization: 'org/acme' } });
    expect({ status: answer.status, text: answer.text }).toEqual({ status: 403, text: errorBody('Access to this API has been disallowed') });
    expect(upstream.requests.length).toBe(before);
  });

  it('keeps /gw/keys/{id} away from it: not found for GET, PUT and DELETE, and the session is still there', async () => {
    expect((await gw.admin('GET', '/gw/keys/org%2Facme')).status).toBe(404);
    expect((await gw.admin('PUT', '/gw/keys/org%2Facme', { access_rights: { 'acme-api': { api_id: 'acme-api', versions: [] } } })).status).toBe(404);
    expect((await gw.admin('DELETE', '/gw/keys/org%2Facme')).status).toBe(404);
    expect((await gw.admin('GET', '/gw/org/keys/acme')).json()).toMatchObject({ quota_max: 3, org_id: 'acme' });
  });

  it("still limits the organisation's APIs with its session", async () => {
    const key = await addKey(gw, ['acme-api'], { org_id: 'acme' });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await gw.call('/acme/x', { headers: { authorization: key } })).status);
    expect(statuses).toEqual([200, 200, 200, 403]);
  });
});
