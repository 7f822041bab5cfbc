// Authentication tokens, keys and policies, end to end: a real gateway process and a real upstream.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, errorBody, rawHttp, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startUpstream, type Echo, type Upstream } from '../../support/upstream.ts';

describe('authentication and keys', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway();
    const apis = [
      classicApi('open', '/open', upstream.url, { use_keyless: true }),
      classicApi('token', '/token', upstream.url),
      classicApi('custom-header', '/custom-header', upstream.url, { use_standard_auth: true, auth_configs: { authToken: { auth_header_name: 'X-Api-Key' } } }),
      classicApi('legacy-header', '/legacy-header', upstream.url, { auth: { auth_header_name: 'X-Legacy' } }),
      classicApi('everywhere', '/everywhere', upstream.url, {
        use_standard_auth: true,
        strip_auth_data: true,
        auth_configs: { authToken: { auth_header_name: 'Authorization', use_param: true, param_name: 'key', use_cookie: true, cookie_name: 'session' } },
      }),
      classicApi('versioned', '/versioned', upstream.url, {
        definition: { location: 'header', key: 'x-api-version' },
        version_data: { not_versioned: false, versions: { v1: { name: 'v1' }, v2: { name: 'v2' } } },
      }),
      classicApi('other', '/other', upstream.url),
    ];
    for (const api of apis) expect((await gw.admin('POST', '/gw/apis', api)).status).toBe(200);
    for (const policy of [
      { id: 'grants-token', name: 'grants token', access_rights: { token: { api_id: 'token', versions: [] } }, rate: 100, per: 1 },
      { id: 'denied', name: 'denied', state: 'deny', access_rights: { token: { api_id: 'token' } } },
      { id: 'draft', name: 'draft', state: 'active', access_rights: { token: { api_id: 'token' } } },
      {
        id: 'meta',
        name: 'meta',
        access_rights: { token: { api_id: 'token' } },
        meta_data: { tier: 'gold' },
        tags: ['gold'],
        quota_max: 50,
        quota_renewal_rate: 3600,
      },
    ]) {
      expect((await gw.admin('POST', '/gw/policies', policy)).status).toBe(200);
    }
    await gw.reload();
  });

  it('lets anyone through a keyless API', async () => {
    expect((await gw.call('/open/x')).status).toBe(200);
  });

  it('answers a missing credential with 401 `Authorization field missing` and X-Generator', async () => {
    const result = await gw.call('/token/x');
    expect(result.status).toBe(401);
    expect(result.text).toBe(errorBody('Authorization field missing'));
    expect(result.headers['content-type']).toBe('application/json');
    expect(result.headers['x-generator']).toBe('gw');
  });

  it('answers an unknown or too short credential with 403 `Access to this API has been disallowed`', async () => {
    for (const credential of ['not-a-key-at-all', 'ab']) {
      const result = await gw.call('/token/x', { headers: { authorization: credential } });
      expect(result.status).toBe(403);
      expect(result.text).toBe(errorBody('Access to this API has been disallowed'));
    }
  });

  it('reads the key from the header, with or without `Bearer ` in any case', async () => {
    const key = await addKey(gw, ['token']);
    for (const value of [key, `Bearer ${key}`, `bearer ${key}`, `BEARER ${key}`]) {
      expect((await gw.call('/token/x', { headers: { authorization: value } })).status, value).toBe(200);
    }
  });

  it('reads the header named by auth_configs.authToken.auth_header_name, or the legacy auth.auth_header_name', async () => {
    const key = await addKey(gw, ['custom-header', 'legacy-header']);
    expect((await gw.call('/custom-header/x', { headers: { 'x-api-key': key } })).status).toBe(200);
    expect((await gw.call('/custom-header/x', { headers: { authorization: key } })).status).toBe(401);
    expect((await gw.call('/legacy-header/x', { headers: { 'x-legacy': key } })).status).toBe(200);
  });

  it('prefers a cookie over a query parameter over the header, and strips all three upstream', async () => {
    const good = await addKey(gw, ['everywhere']);
    const bad = 'an-unknown-credential';
    expect((await rawHttp(gw.url, `/everywhere/x?key=${bad}`, { authorization: good })).status).toBe(403);
    expect((await rawHttp(gw.url, `/everywhere/x?key=${good}`, { authorization: bad })).status).toBe(200);
    expect((await rawHttp(gw.url, `/everywhere/x?key=${good}`, { cookie: `session=${bad}` })).status).toBe(403);
    expect((await rawHttp(gw.url, `/everywhere/x?key=${bad}`, { cookie: `session=${good}` })).status).toBe(200);
    expect((await rawHttp(gw.url, `/everywhere/x?key=${good}`, { cookie: 'session=' })).status).toBe(200);

    const stripped = await rawHttp(gw.url, `/everywhere/x?key=${good}&keep=1`, { authorization: good, cookie: `other=1; session=${good}; sessionx=2` });
    const echo = stripped.json<Echo>();
    expect(echo.url).toBe('/x?keep=1');
    expect(echo.headers.authorization).toBeUndefined();
    expect(echo.headers.cookie).toBe('other=1; sessionx=2');
  });

  it('forwards the credential when strip_auth_data is off', async () => {
    const key = await addKey(gw, ['token']);
    expect((await gw.call('/token/x', { headers: { authorization: key } })).json<Echo>().headers.authorization).toBe(key);
  });

  it('refuses a key for another API, another version, or a path outside allowed_urls', async () => {
    const key = await addKey(gw, ['other']);
    expect((await gw.call('/token/x', { headers: { authorization: key } })).text).toBe(errorBody('Access to this API has been disallowed'));

    const v1Only = (
      await gw.admin('POST', '/gw/keys/create', {
        access_rights: { versioned: { api_id: 'versioned', versions: ['v1'], allowed_urls: [{ url: '/items/{id}', methods: ['GET'] }] } },
      })
    ).json<{ key: string }>().key;
    const call = (path: string, version: string, method = 'GET') =>
      gw.call(path, { method: method as 'GET', headers: { authorization: v1Only, 'x-api-version': version } });
    expect((await call('/versioned/items/7', 'v1')).status).toBe(200);
    expect((await call('/versioned/items/7', 'v2')).text).toBe(errorBody('Access to this API has been disallowed'));
    expect((await call('/versioned/users', 'v1')).text).toBe(errorBody('Access to this resource has been disallowed'));
    expect((await call('/versioned/items/7', 'v1', 'DELETE')).status).toBe(403);
  });

  it('answers an expired key 401 `Key has expired, please renew` and an inactive one 403 `Key is inactive, please renew`', async () => {
    const expired = await addKey(gw, ['token'], { expires: Math.floor(Date.now() / 1000) - 10 });
    expect(await gw.call('/token/x', { headers: { authorization: expired } })).toMatchObject({ status: 401, text: errorBody('Key has expired, please renew') });
    const future = await addKey(gw, ['token'], { expires: Math.floor(Date.now() / 1000) + 3600 });
    expect((await gw.call('/token/x', { headers: { authorization: future } })).status).toBe(200);
    const inactive = await addKey(gw, ['token'], { is_inactive: true });
    expect(await gw.call('/token/x', { headers: { authorization: inactive } })).toMatchObject({
      status: 403,
      text: errorBody('Key is inactive, please renew'),
    });
  });

  it('grants access through policies and answers with them merged in', async () => {
    const created = await gw.admin('POST', '/gw/keys/create', { apply_policies: ['grants-token', 'meta'] });
    expect(created.status).toBe(200);
    const { key } = created.json<{ key: string }>();
    expect((await gw.call('/token/x', { headers: { authorization: key } })).status).toBe(200);
    const session = (await gw.admin('GET', `/gw/keys/${key}`)).json<Record<string, unknown>>();
    expect(session).toMatchObject({
      rate: 100,
      per: 1,
      quota_max: 50,
      quota_remaining: 49,
      meta_data: { tier: 'gold' },
      tags: ['gold'],
      access_rights: { token: { api_id: 'token' } },
    });
    expect(session.quota_renews).toBeGreaterThan(Date.now() / 1000);
  });

  it('honours policy states: deny deactivates keys; draft keeps them but refuses new ones', async () => {
    const key = (await gw.admin('POST', '/gw/keys/create', { apply_policies: ['draft'] })).json<{ key: string }>().key;
    expect((await gw.call('/token/x', { headers: { authorization: key } })).status).toBe(200);
    expect((await gw.admin('PUT', '/gw/policies/draft', { name: 'draft', state: 'draft', access_rights: { token: { api_id: 'token' } } })).status).toBe(200);
    await gw.reload();
    expect((await gw.call('/token/x', { headers: { authorization: key } })).status).toBe(200);
    const refused = await gw.admin('POST', '/gw/keys/create', { apply_policies: ['draft'] });
    expect(refused.status).toBe(400);
    expect(refused.json<{ message: string }>().message).toBe('Failed to create key - policy draft is in state draft: no new keys can be created');

    expect((await gw.admin('PUT', '/gw/policies/draft', { name: 'draft', state: 'deny', access_rights: { token: { api_id: 'token' } } })).status).toBe(200);
    await gw.reload();
    expect(await gw.call('/token/x', { headers: { authorization: key } })).toMatchObject({ status: 403, text: errorBody('Key is inactive, please renew') });
    expect((await gw.admin('POST', '/gw/keys/create', { apply_policies: ['denied'] })).status).toBe(400);
  });

  it('refuses keys that grant nothing or name a missing policy', async () => {
    expect((await gw.admin('POST', '/gw/keys/create', { rate: 1, per: 1 })).json()).toEqual({
      status: 'error',
      message: 'Failed to create key, keys must have at least one Access Rights record set.',
    });
    expect((await gw.admin('POST', '/gw/keys/create', { apply_policies: ['nope'] })).json<{ message: string }>().message).toBe(
      'Failed to create key - policy nope not found',
    );
  });

  it('creates custom key ids, refuses duplicates and too-short ids', async () => {
    const body = { access_rights: { token: { api_id: 'token' } } };
    expect((await gw.admin('POST', '/gw/keys/my-custom-key-1', body)).json()).toMatchObject({ key: 'my-custom-key-1', status: 'ok', action: 'added' });
    expect((await gw.call('/token/x', { headers: { authorization: 'my-custom-key-1' } })).status).toBe(200);
    expect((await gw.admin('POST', '/gw/keys/my-custom-key-1', body)).status).toBe(409);
    expect((await gw.admin('POST', '/gw/keys/ab', body)).json<{ message: string }>().message).toBe('custom key ID length 2 is less than min_token_length (3)');
  });

  it('stores only key hashes, finds a key by its hash, and hides the listing of hashes by default', async () => {
    const created = (await gw.admin('POST', '/gw/keys/create', { access_rights: { token: { api_id: 'token' } } })).json<{ key: string; key_hash: string }>();
    expect(created.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await gw.admin('GET', `/gw/keys/${created.key_hash}?hashed=1`)).status).toBe(200);
    expect((await gw.admin('GET', '/gw/keys')).json()).toEqual({
      status: 'error',
      message: 'Hashed key listing is disabled in config (enable_hashed_keys_listing)',
    });
    const stored = readdirSync(join(gw.dir, 'data'))
      .map((file) => readFileSync(join(gw.dir, 'data', file), 'utf8'))
      .join('');
    expect(stored).toContain(created.key_hash);
    expect(stored).not.toContain(created.key);
  });

  it('updates a key (PUT) and deletes it', async () => {
    const key = await addKey(gw, ['token']);
    expect((await gw.admin('PUT', `/gw/keys/${key}`, { access_rights: { other: { api_id: 'other' } } })).json()).toEqual({
      key,
      status: 'ok',
      action: 'modified',
    });
    expect((await gw.call('/token/x', { headers: { authorization: key } })).status).toBe(403);
    expect((await gw.call('/other/x', { headers: { authorization: key } })).status).toBe(200);
    expect((await gw.admin('DELETE', `/gw/keys/${key}`)).json()).toEqual({ key, status: 'ok', action: 'deleted' });
    expect((await gw.call('/other/x', { headers: { authorization: key } })).status).toBe(403);
  });
});

describe('keys without hashing', () => {
  it('lists keys as they are when hash_keys is off', async () => {
    const upstream = await startUpstream();
    const gw = await startGateway({ hash_keys: false });
    expect((await gw.admin('POST', '/gw/apis', classicApi('t', '/t', upstream.url))).status).toBe(200);
    await gw.reload();
    const key = await addKey(gw, ['t']);
    expect((await gw.admin('GET', '/gw/keys')).json<{ keys: string[] }>().keys).toContain(key);
    expect((await gw.admin('GET', `/gw/keys/${key}?hashed=1`)).json<{ message: string }>().message).toBe(
      'Key requested by hash but key hashing is not enabled',
    );
  });
});
