// The classic portal's admin API, part 2: developers and key requests on a real dashboard on a real PostgreSQL,
// with a real gateway in licensed mode fed by it. Tyk's payloads (docs/compatibility.md); passwords stored
// only as scrypt hashes and never answered; an approved request yields {RawKey, Password} and the key calls the
// policy's API through the gateway (and is recorded on the developer); the developer side's self-service path
// (portal/key-requests.ts requestKey, called here on the same database) issues a key at once or waits for approval
// as the configuration says; another organisation sees none of the developers, requests or credentials.
import { createHash } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/database.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { requestKey } from '../../../src/dashboard/portal/key-requests.ts';
import { classicApi, createOrg, NODE_SECRET, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startPostgres } from '../../support/postgres.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

interface Answer {
  status: number;
  text: string;
  json<T>(): T;
}

describe('portal admin API: developers and key requests', () => {
  let upstream: Upstream;
  let dashboard: RunningDashboard;
  let db: Database;
  let gw: RunningGateway;
  let orgA: TestOrg;
  let orgB: TestOrg;
  let policyA: string;
  let draftPolicyA: string;
  let policyB: string;

  const message = (answer: Answer): string => {
    expect(answer.status, answer.text).toBe(200);
    return answer.json<{ Message: string }>().Message;
  };
  const refused = (answer: Answer, status: number, field: string): void => {
    expect(answer.status, answer.text).toBe(status);
    expect(answer.text).toContain(field);
  };
  /** An authToken API of the organisation proxying to the upstream, and an active policy granting it. */
  const shop = async (org: TestOrg, name: string, state = 'active'): Promise<string> => {
    const api = await org.call(
      'POST',
      '/api/apis',
      classicApi(name, `/${name}/`, {
        use_keyless: false,
        use_standard_auth: true,
        auth_configs: { authToken: { auth_header_name: 'Authorization' } },
        proxy: { listen_path: `/${name}/`, target_url: upstream.url, strip_listen_path: true },
      }),
    );
    expect(api.status, api.text).toBe(200);
    const apiId = api.json<{ Meta: string }>().Meta;
    return message(
      await org.call('POST', '/api/portal/policies', { name: `${name} plan`, state, access_rights: { [apiId]: { api_id: apiId, versions: [] } } }),
    );
  };

  beforeAll(async () => {
    upstream = await startUpstream();
    const postgres = await startPostgres();
    const url = postgres.createDatabase('portal_developers');
    dashboard = await startDashboard({ database_url: url });
    db = await openDatabase(url);
    orgA = await createOrg(dashboard, 'Team A');
    orgB = await createOrg(dashboard, 'Team B');
    policyA = await shop(orgA, 'shop');
    draftPolicyA = await shop(orgA, 'later', 'draft');
    policyB = await shop(orgB, 'other');
    gw = await startGateway({
      use_db_app_configs: true,
      policies: { policy_source: 'service' },
      db_app_conf_options: { connection_string: dashboard.url, node_secret: NODE_SECRET, poll_interval_seconds: 0.3 },
    });
    await waitUntil('the gateway to serve /shop/', async () => (await gw.call('/shop/')).status === 401);
  });
  afterAll(async () => {
    await db?.close();
    await dashboard?.stop();
  });

  it('creates, lists, updates and deletes developers; the password is stored as an scrypt hash and never answered', async () => {
    const password = 'correct horse battery';
    const id = message(await orgA.call('POST', '/api/portal/developers', { email: 'Dev@A.test', password, fields: { Name: 'Dev' } }));
    const expected = {
      id,
      _id: id,
      email: 'Dev@A.test',
      inactive: false,
      awaiting_approval: false,
      org_id: orgA.id,
      keys: {},
      subscriptions: {},
      fields: { Name: 'Dev' },
      nonce: '',
      sso_key: '',
    };
    const list = await orgA.call('GET', '/api/portal/developers');
    expect(list.json()).toEqual({ Data: [{ ...expected, date_created: expect.any(String) as string }], Pages: 1 });
    expect((await orgA.call('GET', `/api/portal/developers/${id}`)).json()).toMatchObject(expected);
    expect((await orgA.call('GET', '/api/portal/developers/email/dev@a.test')).json()).toMatchObject(expected);
    // q: e-mails containing it in any case, taken literally (a LIKE wildcard matches nothing).
    const found = async (q: string): Promise<string[]> =>
      (await orgA.call('GET', `/api/portal/developers?q=${encodeURIComponent(q)}`)).json<{ Data: { id: string }[] }>().Data.map((d) => d.id);
    expect([await found('DEV@a'), await found('%'), await found('_'), await found('nobody')]).toEqual([[id], [], [], []]);
    refused(await orgA.call('GET', `/api/portal/developers?q=${'x'.repeat(321)}`), 400, 'q: must be at most 320 characters');
    for (const answer of [list, await orgA.call('GET', `/api/portal/developers/${id}`)]) {
      expect(answer.text).not.toContain(password);
      expect(answer.text).not.toContain('scrypt');
      expect(answer.text).not.toContain('password');
    }
    const stored = await db.query<{ password_hash: string }>('SELECT password_hash FROM dashboard_portal_developers WHERE id = $1', [id]);
    expect(stored[0]!.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(stored[0]!.password_hash).not.toContain(password);

    const verify = (username: string, given: string) => orgA.call('POST', '/api/portal/developers/verify_credentials', { username, password: given });
    expect((await verify('dev@a.test', password)).json()).toEqual({ Status: 'OK', Message: id, Meta: null });
    refused(await verify('dev@a.test', 'wrong password'), 401, 'Invalid developer credentials');
    refused(await verify('nobody@a.test', password), 401, 'Invalid developer credentials');

    refused(await orgA.call('POST', '/api/portal/developers', { email: 'dev@a.test', password }), 409, 'email: a developer with this e-mail already exists');
    refused(await orgA.call('POST', '/api/portal/developers', { email: 'not-an-email', password }), 400, 'email');
    refused(await orgA.call('POST', '/api/portal/developers', { email: 'x@a.test', password: 'short' }), 400, 'password: must be at least 8 characters');
    refused(await orgA.call('POST', '/api/portal/developers', { email: 'x@a.test' }), 400, 'password');
    refused(await orgA.call('POST', '/api/portal/developers', { email: 'x@a.test', password, fields: { n: 1 } }), 400, 'fields.n');
    refused(await orgA.call('POST', '/api/portal/developers/verify_credentials', { username: 'dev@a.test' }), 400, 'password');

    // An inactive developer's credentials no longer verify; a password change takes effect.
    expect((await orgA.call('PUT', `/api/portal/developers/${id}`, { email: 'dev@a.test', inactive: true, fields: {} })).json()).toEqual({
      Status: 'OK',
      Message: 'Data updated',
      Meta: null,
    });
    refused(await verify('dev@a.test', password), 401, 'Invalid developer credentials');
    message(await orgA.call('PUT', `/api/portal/developers/${id}`, { email: 'dev@a.test', inactive: false }));
    expect((await orgA.call('POST', `/api/portal/developers/password/${id}`, { password: 'a new long password' })).json()).toEqual({
      Status: 'OK',
      Message: 'Password changed',
      Meta: null,
    });
    refused(await verify('dev@a.test', password), 401, 'Invalid developer credentials');
    expect((await verify('dev@a.test', 'a new long password')).status).toBe(200);

    // Organisation B: none of it exists there, also not through A's e-mail or A's developer's credentials.
    expect((await orgB.call('GET', '/api/portal/developers')).json()).toEqual({ Data: [], Pages: 0 });
    for (const path of [`/api/portal/developers/${id}`, '/api/portal/developers/email/dev@a.test']) expect((await orgB.call('GET', path)).status).toBe(404);
    expect((await orgB.call('PUT', `/api/portal/developers/${id}`, { email: 'b@b.test' })).status).toBe(404);
    expect((await orgB.call('POST', `/api/portal/developers/password/${id}`, { password: 'taken over!' })).status).toBe(404);
    expect((await orgB.call('DELETE', `/api/portal/developers/${id}`)).status).toBe(404);
    expect((await orgB.call('POST', '/api/portal/developers/verify_credentials', { username: 'dev@a.test', password: 'a new long password' })).status).toBe(
      401,
    );
    // The same e-mail is free in another organisation's portal.
    message(await orgB.call('POST', '/api/portal/developers', { email: 'dev@a.test', password }));

    // Tyk's sample sends a bcrypt hash as the password: it is kept, and the password behind it verifies.
    message(await orgA.call('POST', '/api/portal/developers', { email: 'hashed@a.test', password: bcrypt.hashSync('behind the hash', 10) }));
    expect((await verify('hashed@a.test', 'behind the hash')).status).toBe(200);
    refused(await verify('hashed@a.test', 'not behind it'), 401, 'Invalid developer credentials');

    expect((await orgA.call('DELETE', `/api/portal/developers/${id}`)).json()).toEqual({ Status: 'OK', Message: 'Data deleted', Meta: null });
    expect((await orgA.call('GET', `/api/portal/developers/${id}`)).status).toBe(404);
  });

  it('approves a key request into a key for the policy that calls its API through the gateway, recorded on the developer', async () => {
    const developer = message(await orgA.call('POST', '/api/portal/developers', { email: 'buyer@a.test', password: 'buyer password' }));
    const catalogueId = message(await orgA.call('POST', '/api/portal/catalogue', {}));
    const entry = { name: 'Shop', show: true, policy_id: policyA, auth_type: 'authToken' };
    message(await orgA.call('PUT', '/api/portal/catalogue', { id: catalogueId, apis: [entry] }));

    const requestId = message(
      await orgA.call('POST', '/api/portal/requests', { by_user: developer, fields: { use: 'testing' }, apply_policies: [policyA], version: 'v2' }),
    );
    const pending = (await orgA.call('GET', '/api/portal/requests?approved=false')).json<{ Data: Record<string, unknown>[]; Pages: number }>();
    expect(pending.Pages).toBe(1);
    expect(pending.Data).toEqual([
      expect.objectContaining({
        id: requestId,
        org_id: orgA.id,
        by_user: developer,
        fields: { use: 'testing' },
        apply_policies: [policyA],
        for_plan: policyA,
        approved: false,
        version: 'v2',
        portal_developer: expect.objectContaining({ id: developer, email: 'buyer@a.test' }) as unknown,
        catalogue_entry: expect.objectContaining({ name: 'Shop', policy_id: policyA }) as unknown,
      }),
    ]);
    expect((await orgA.call('GET', '/api/portal/requests?approved=true')).json()).toEqual({ Data: [], Pages: 0 });

    const approved = await orgA.call('PUT', `/api/portal/requests/approve/${requestId}`);
    expect(approved.status, approved.text).toBe(200);
    const { RawKey, Password } = approved.json<{ RawKey: string; Password: string }>();
    expect(Password).toBe('');
    expect(RawKey.startsWith(orgA.id)).toBe(true);

    // The key works on the gateway for the policy's API, and is recorded on the developer by its hash.
    await waitUntil(
      'the approved key to work on the gateway',
      async () => (await gw.call('/shop/anything', { headers: { authorization: RawKey } })).status === 200,
    );
    expect((await gw.call('/shop/anything', { headers: { authorization: 'not-a-key' } })).status).toBe(403);
    expect((await gw.call('/other/anything', { headers: { authorization: RawKey } })).status).not.toBe(200);
    const stored = (await orgA.call('GET', `/api/portal/developers/${developer}`)).json<{ keys: unknown; subscriptions: unknown }>();
    expect(stored.keys).toEqual({ [sha256(RawKey)]: [policyA] });
    expect(stored.subscriptions).toEqual({ [policyA]: sha256(RawKey) });
    expect((await orgA.call('GET', `/api/keys/${RawKey}`)).json()).toMatchObject({
      data: { apply_policies: [policyA], alias: 'buyer@a.test', meta_data: { tyk_developer_id: developer } },
    });
    expect((await orgA.call('GET', `/api/portal/requests/${requestId}`)).json()).toMatchObject({ id: requestId, approved: true });
    expect((await orgA.call('GET', '/api/portal/requests?approved=true')).json<{ Data: { id: string }[] }>().Data.map((r) => r.id)).toEqual([requestId]);
    expect((await orgA.call('GET', `/api/portal/requests/${requestId}`)).text).not.toContain(RawKey);

    refused(await orgA.call('PUT', `/api/portal/requests/approve/${requestId}`), 409, 'already approved');
    refused(await orgA.call('PUT', `/api/portal/requests/decline/${requestId}`), 409, 'already approved');

    // Decline keeps a pending request, declined with the admin's reason (gw; Tyk removes it): listed under
    // status=declined, no longer under approved=false, and neither approvable nor declinable again.
    const declined = message(await orgA.call('POST', '/api/portal/requests', { by_user: developer, for_plan: policyA }));
    expect((await orgA.call('GET', `/api/portal/requests/${declined}`)).json()).toMatchObject({ apply_policies: [policyA], status: 'pending' });
    refused(await orgA.call('PUT', `/api/portal/requests/decline/${declined}`, { reason: 'x'.repeat(1001) }), 400, 'reason');
    expect((await orgA.call('PUT', `/api/portal/requests/decline/${declined}`, { reason: 'Use the sandbox plan' })).json()).toEqual({
      Status: 'OK',
      Message: 'Key request declined',
      Meta: null,
    });
    expect((await orgA.call('GET', `/api/portal/requests/${declined}`)).json()).toMatchObject({
      approved: false,
      declined: true,
      decline_reason: 'Use the sandbox plan',
      status: 'declined',
    });
    const ids = async (filter: string): Promise<string[]> =>
      (await orgA.call('GET', `/api/portal/requests?${filter}`)).json<{ Data: { id: string }[] }>().Data.map((r) => r.id);
    expect(await ids('status=declined')).toEqual([declined]);
    expect(await ids('approved=false')).not.toContain(declined);
    expect(await ids('status=pending')).not.toContain(declined);
    refused(await orgA.call('GET', '/api/portal/requests?status=maybe'), 400, 'status: must be pending, approved or declined');
    refused(await orgA.call('PUT', `/api/portal/requests/approve/${declined}`), 409, 'was declined');
    refused(await orgA.call('PUT', `/api/portal/requests/decline/${declined}`), 409, 'already declined');
    // Delete removes any.
    expect((await orgA.call('DELETE', `/api/portal/requests/${declined}`)).json()).toEqual({ Status: 'OK', Message: 'Data deleted', Meta: null });
    expect((await orgA.call('DELETE', `/api/portal/requests/${requestId}`)).json()).toEqual({ Status: 'OK', Message: 'Data deleted', Meta: null });
    expect((await orgA.call('GET', `/api/portal/requests/${requestId}`)).status).toBe(404);

    // Bad input names the field; another organisation's developer or policy is refused like nothing.
    const developerB = message(await orgB.call('POST', '/api/portal/developers', { email: 'buyer@b.test', password: 'buyer password' }));
    refused(
      await orgA.call('POST', '/api/portal/requests', { by_user: developerB, apply_policies: [policyA] }),
      400,
      `by_user: developer ${developerB} not found in this organisation`,
    );
    refused(
      await orgA.call('POST', '/api/portal/requests', { by_user: developer, apply_policies: [policyB] }),
      400,
      `apply_policies.0: policy ${policyB} not found in this organisation`,
    );
    refused(await orgA.call('POST', '/api/portal/requests', { by_user: developer, apply_policies: [draftPolicyA] }), 400, 'apply_policies.0: policy');
    refused(await orgA.call('POST', '/api/portal/requests', { by_user: developer }), 400, 'apply_policies: a key request needs at least one policy');
    refused(await orgA.call('POST', '/api/portal/requests', { apply_policies: [policyA] }), 400, 'by_user');
    refused(await orgA.call('POST', '/api/portal/requests', { by_user: developer, apply_policies: [policyA], version: 'v1' }), 400, 'version');
    refused(await orgA.call('GET', '/api/portal/requests?approved=maybe'), 400, 'approved: must be true or false');

    // Organisation B cannot see, approve, decline or delete A's requests.
    const another = message(await orgA.call('POST', '/api/portal/requests', { by_user: developer, apply_policies: [policyA] }));
    expect((await orgB.call('GET', '/api/portal/requests')).json()).toEqual({ Data: [], Pages: 0 });
    for (const [method, path] of [
      ['GET', `/api/portal/requests/${another}`],
      ['PUT', `/api/portal/requests/approve/${another}`],
      ['PUT', `/api/portal/requests/decline/${another}`],
      ['DELETE', `/api/portal/requests/${another}`],
    ] as const) {
      expect((await orgB.call(method, path)).status, `${method} ${path}`).toBe(404);
    }
    expect((await orgA.call('GET', `/api/portal/requests/${another}`)).json()).toMatchObject({ approved: false });
    refused(await dashboard.as(await orgA.user({ portal: 'read' }))('PUT', `/api/portal/requests/approve/${another}`), 403, 'requires portal write');
  });

  it("lets a developer ask for a catalogue entry's key: issued at once, or pending until approved when the configuration requires it", async () => {
    const developer = message(await orgA.call('POST', '/api/portal/developers', { email: 'self@a.test', password: 'self password' }));
    const deps = { db, config: { hash_keys: true, admin_secret: 'portal-key-sealing-secret' } };
    const ask = (policyId: string) => requestKey(deps, orgA.id, developer, { policyId, fields: {} });

    const immediate = await ask(policyA);
    expect(immediate.request.approved).toBe(true);
    await waitUntil(
      'the self-service key to work on the gateway',
      async () => (await gw.call('/shop/x', { headers: { authorization: immediate.key! } })).status === 200,
    );

    await expect(ask(draftPolicyA)).rejects.toThrow(`policy_id: ${draftPolicyA} is not an entry of this organisation's catalogue`);
    await expect(ask(policyB)).rejects.toThrow('policy_id');

    message(await orgA.call('PUT', '/api/portal/configuration', { require_key_approval: true }));
    const waiting = await ask(policyA);
    expect(waiting.key).toBeUndefined();
    expect(waiting.request.approved).toBe(false);
    const approved = await orgA.call('PUT', `/api/portal/requests/approve/${waiting.request.id}`);
    const key = approved.json<{ RawKey: string }>().RawKey;
    await waitUntil('the approved key to work on the gateway', async () => (await gw.call('/shop/x', { headers: { authorization: key } })).status === 200);
    expect(Object.keys((await orgA.call('GET', `/api/portal/developers/${developer}`)).json<{ keys: object }>().keys).sort()).toEqual(
      [sha256(immediate.key!), sha256(key)].sort(),
    );
  });

  it('adds a key to a developer and revokes it: the gateway stops accepting it; another organisation cannot touch it', async () => {
    const developer = message(await orgA.call('POST', '/api/portal/developers', { email: 'keys@a.test', password: 'keys password' }));
    const added = await orgA.call('POST', `/api/portal/developers/${developer}/keys`, { apply_policies: [policyA], fields: {} });
    expect(added.status, added.text).toBe(200);
    const { RawKey } = added.json<{ RawKey: string; Password: string }>();
    await waitUntil('the added key to work on the gateway', async () => (await gw.call('/shop/x', { headers: { authorization: RawKey } })).status === 200);
    expect((await orgA.call('GET', `/api/portal/developers/${developer}`)).json()).toMatchObject({
      keys: { [sha256(RawKey)]: [policyA] },
      subscriptions: { [policyA]: sha256(RawKey) },
    });

    refused(
      await orgA.call('POST', `/api/portal/developers/${developer}/keys`, { apply_policies: [] }),
      400,
      'apply_policies: a key needs at least one policy',
    );
    refused(
      await orgA.call('POST', `/api/portal/developers/${developer}/keys`, { apply_policies: [policyB] }),
      400,
      `apply_policies.0: policy ${policyB} not found in this organisation`,
    );
    expect((await orgB.call('POST', `/api/portal/developers/${developer}/keys`, { apply_policies: [policyB] })).status).toBe(404);
    expect((await orgB.call('DELETE', `/api/portal/developers/${developer}/keys/${sha256(RawKey)}`)).status).toBe(404);
    expect((await orgA.call('DELETE', `/api/portal/developers/${developer}/keys/not-theirs`)).status).toBe(404);

    expect((await orgA.call('DELETE', `/api/portal/developers/${developer}/keys/${sha256(RawKey)}`)).json()).toEqual({
      Status: 'OK',
      Message: 'Key revoked',
      Meta: null,
    });
    await waitUntil(
      'the revoked key to be refused by the gateway',
      async () => (await gw.call('/shop/x', { headers: { authorization: RawKey } })).status === 403,
    );
    expect((await orgA.call('GET', `/api/portal/developers/${developer}`)).json()).toMatchObject({ keys: {}, subscriptions: {} });
    expect((await orgA.call('GET', `/api/keys/${RawKey}`)).status).toBe(404);
  });
});
