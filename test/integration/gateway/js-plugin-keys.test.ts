// TykGetKeyData and TykSetKeyData (plugins/host-calls.ts) through a real gateway, with APIs of two organisations:
// a plugin reads and writes keys of its own API's organisation only. It cannot mint a key opening another
// organisation's API (by naming that organisation, or by naming its API alone), read another organisation's key,
// or overwrite one; a key it writes for its own organisation's APIs works and carries that organisation.
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream } from '../../support/upstream.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const session = (org: string | undefined, api: string): string =>
  JSON.stringify({
    ...(org ? { org_id: org } : {}),
    rate: 100,
    per: 1,
    quota_max: -1,
    expires: 0,
    access_rights: { [api]: { api_id: api, versions: [] } },
  });
/** A virtual endpoint at /<name> running `code` (the request is `request`), answering what it returns. */
const virtual = (name: string, code: string) => ({
  path: `/${name}`,
  method: 'GET',
  response_function_name: name,
  function_source_type: 'blob',
  function_source_uri: b64(
    `function ${name}(request) { var out = (function () { ${code} })(); return TykJsResponse({ Body: String(out), Code: 200, Headers: {} }, {}); }`,
  ),
});

describe('JavaScript plugins: keys of their own organisation only', () => {
  let gw: RunningGateway;
  let otherOrgKey: string;

  beforeAll(async () => {
    const upstream = await startUpstream();
    gw = await startGateway({ enable_jsvm: true });
    const given = 'request.Params.key[0]';
    const apis = [
      {
        ...classicApi('org-a-plugins', '/a', upstream.url, {
          use_keyless: true,
          extended_paths: {
            virtual: [
              virtual('mintNamed', `TykSetKeyData('minted-named-key', ${JSON.stringify(session('org-b', 'org-b-api'))}, '0'); return 'done';`),
              virtual('mintUnnamed', `TykSetKeyData('minted-unnamed-key', ${JSON.stringify(session(undefined, 'org-b-api'))}, '0'); return 'done';`),
              virtual('takeOver', `TykSetKeyData(${given}, ${JSON.stringify(session(undefined, 'org-a-private'))}, '0'); return 'done';`),
              virtual('peek', `return TykGetKeyData(${given}, 'org-b-api');`),
              virtual('mintOwn', `TykSetKeyData('own-key', ${JSON.stringify(session(undefined, 'org-a-private'))}, '0'); return 'done';`),
            ],
          },
        }),
        org_id: 'org-a',
      },
      { ...classicApi('org-a-private', '/a-private', upstream.url), org_id: 'org-a' },
      { ...classicApi('org-b-api', '/b', upstream.url), org_id: 'org-b' },
    ];
    for (const api of apis) expect((await gw.admin('POST', '/gw/apis', api)).status).toBe(200);
    await gw.reload();
    otherOrgKey = await addKey(gw, ['org-b-api'], { org_id: 'org-b' });
  });

  const asKey = (path: string, key: string) => gw.call(path, { headers: { authorization: key } });

  it("mints no key opening another organisation's API, whether the session names that organisation or not", async () => {
    for (const name of ['mintNamed', 'mintUnnamed']) expect((await gw.call(`/a/${name}`)).text).toBe('done');
    expect((await asKey('/b/x', 'minted-named-key')).status).toBe(403);
    expect((await asKey('/b/x', 'minted-unnamed-key')).status).toBe(403);
    expect((await gw.admin('GET', '/gw/keys/minted-unnamed-key')).status).toBe(404);
  });

  it("neither reads nor overwrites another organisation's key", async () => {
    expect((await gw.call(`/a/peek?key=${otherOrgKey}`)).text).toBe('undefined');
    expect((await gw.call(`/a/takeOver?key=${otherOrgKey}`)).text).toBe('done');
    expect((await asKey('/b/x', otherOrgKey)).status).toBe(200);
    expect((await asKey('/a-private/x', otherOrgKey)).status).toBe(403);
  });

  it("writes a key for its own organisation's APIs, stored with that organisation", async () => {
    expect((await gw.call('/a/mintOwn')).text).toBe('done');
    expect((await asKey('/a-private/x', 'own-key')).status).toBe(200);
    expect((await gw.admin('GET', '/gw/keys/own-key')).json<{ org_id: string }>().org_id).toBe('org-a');
  });
});
