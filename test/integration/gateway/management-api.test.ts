// The gateway's management API as a client sees it: a real `gw gateway` process, HTTP over loopback.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/up/paths.ts';
import { addApi, classicApi, http, SECRET, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

/** A self-signed certificate for gw.test, not a CA, without its private key. */
const CERT = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'gw.test.crt'), 'utf8');

const oasApi = (id: string | undefined, listenPath: string, target: string, extra: Record<string, unknown> = {}) => ({
  openapi: '3.0.3',
  info: { title: 'Petstore', version: '1.0.0' },
  paths: { '/pets': { get: { operationId: 'listPets', responses: { '200': { description: 'ok' } } } } },
  'x-gw-api-gateway': {
    info: { ...(id ? { id } : {}), name: 'petstore', state: { active: true } },
    upstream: { url: target },
    server: { listenPath: { value: listenPath, strip: true } },
    ...extra,
  },
});

describe('gateway management API', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway({ control_api_max_body_bytes: 64 * 1024 });
  });

  describe('authentication', () => {
    it('refuses a missing or wrong x-gw-authorization with 403 and Tyk message', async () => {
      const attempts: Record<string, string>[] = [{}, { 'x-gw-authorization': 'wrong' }, { 'x-gw-authorization': `${SECRET}x` }, { 'x-gw-authorization': '' }];
      for (const headers of attempts) {
        const result = await http(`${gw.controlUrl}/gw/apis`, { headers });
        expect(result.status).toBe(403);
        expect(result.json()).toEqual({ status: 'error', message: 'Attempted administrative access with invalid or missing key!' });
      }
      expect((await gw.admin('GET', '/gw/apis')).status).toBe(200);
    });

    it("accepts Tyk's X-Tyk-Authorization header as well (scripts written for Tyk Gateway), and refuses a wrong one", async () => {
      expect((await http(`${gw.controlUrl}/gw/apis`, { headers: { 'X-Tyk-Authorization': SECRET } })).status).toBe(200);
      expect((await http(`${gw.controlUrl}/gw/apis`, { headers: { 'x-tyk-authorization': `${SECRET}x` } })).status).toBe(403);
      // A wrong gw header beside the right Tyk one (or the reverse) is still the secret presented.
      expect((await http(`${gw.controlUrl}/gw/apis`, { headers: { 'x-gw-authorization': 'wrong', 'x-tyk-authorization': SECRET } })).status).toBe(200);
    });

    it('answers health and readiness without the secret, and never the management API', async () => {
      expect((await http(`${gw.controlUrl}/hello`)).json()).toMatchObject({ status: 'pass', details: { store: { status: 'pass' } } });
      expect((await http(`${gw.controlUrl}/ready`)).status).toBe(200);
      expect((await http(`${gw.controlUrl}/gw/keys`)).status).toBe(403);
    });

    it('answers 405 for a wrong method and a plain 404 for an unknown path', async () => {
      expect(await gw.admin('PATCH', '/gw/apis')).toMatchObject({ status: 405, text: '{"status":"error","message":"Method not supported"}\n' });
      expect(await gw.admin('GET', '/gw/nothing-here')).toMatchObject({ status: 404, text: '404 page not found\n' });
    });
  });

  describe('/gw/apis (Classic)', () => {
    it('creates with the documented answer, serves after a reload, reads, updates and deletes', async () => {
      const created = await gw.admin('POST', '/gw/apis', classicApi('crud', '/crud/', upstream.url, { use_keyless: true }));
      expect(created.status).toBe(200);
      expect(created.text).toBe('{"key":"crud","status":"ok","action":"added"}\n');
      expect((await gw.call('/crud/x')).status).toBe(404); // written, not yet loaded
      await gw.reload();
      expect((await gw.call('/crud/x')).status).toBe(200);

      expect((await gw.admin('GET', '/gw/apis/crud')).json()).toMatchObject({ api_id: 'crud', proxy: { listen_path: '/crud/' } });
      expect((await gw.admin('GET', '/gw/apis')).json<{ api_id: string }[]>().map((a) => a.api_id)).toContain('crud');

      const updated = await gw.admin('PUT', '/gw/apis/crud', classicApi('crud', '/crud2/', upstream.url, { use_keyless: true }));
      expect(updated.json()).toEqual({ key: 'crud', status: 'ok', action: 'modified' });
      await gw.reload();
      expect((await gw.call('/crud2/x')).status).toBe(200);
      expect((await gw.call('/crud/x')).status).toBe(404);

      expect((await gw.admin('DELETE', '/gw/apis/crud')).json()).toEqual({ key: 'crud', status: 'ok', action: 'deleted' });
      await gw.reload();
      expect((await gw.call('/crud2/x')).status).toBe(404);
      expect((await gw.admin('GET', '/gw/apis/crud')).json()).toEqual({ status: 'error', message: 'API not found' });
    });

    it('generates an api_id when none is given', async () => {
      const created = await gw.admin('POST', '/gw/apis', {
        name: 'generated',
        use_keyless: true,
        proxy: { listen_path: '/generated', target_url: upstream.url },
      });
      const id = created.json<{ key: string }>().key;
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect((await gw.admin('GET', `/gw/apis/${id}`)).json()).toMatchObject({ api_id: id, name: 'generated' });
    });

    it('refuses a PUT whose api_id differs from the path', async () => {
      await addApi(gw, classicApi('stable', '/stable', upstream.url));
      const result = await gw.admin('PUT', '/gw/apis/stable', classicApi('other', '/stable', upstream.url));
      expect(result.status).toBe(400);
      expect(result.json()).toEqual({ status: 'error', message: 'Request APIID does not match that in Definition! For Update operations these must match.' });
    });

    it('refuses an API it could not serve as written, naming the field', async () => {
      const cases: [unknown, string][] = [
        [{ name: 'x', proxy: { target_url: upstream.url } }, 'proxy.listen_path is required'],
        [{ name: 'x', proxy: { listen_path: '/x' } }, 'proxy.target_url is required'],
        [{ name: 'x', proxy: { listen_path: 'x', target_url: upstream.url } }, "proxy.listen_path must start with '/'"],
        [{ name: 'x', proxy: { listen_path: '/x', target_url: 'ftp://x' } }, 'proxy.target_url must be an http or https URL'],
        [
          { name: 'x', use_keyless: true, use_standard_auth: true, proxy: { listen_path: '/x', target_url: upstream.url } },
          'use_keyless: a keyless API cannot also use standard auth (use_standard_auth)',
        ],
        [{ name: 'x', enable_jwt: true, proxy: { listen_path: '/x', target_url: upstream.url } }, 'jwt_source is required'],
        [
          { name: 'x', use_mutual_tls_auth: true, client_certificates: [''], proxy: { listen_path: '/x', target_url: upstream.url } },
          'client_certificates[0] must be a certificate id',
        ],
        [{ name: 'x', api_id: 'a/b', proxy: { listen_path: '/x', target_url: upstream.url } }, 'api_id must be 1-128 characters'],
        [{ proxy: { listen_path: '/x', target_url: upstream.url } }, 'name: Invalid input: expected string, received undefined'],
      ];
      for (const [body, message] of cases) {
        const result = await gw.admin('POST', '/gw/apis', body);
        expect(result.status, message).toBe(400);
        expect(result.json<{ message: string }>().message).toContain('Validation of API Definition failed. Reason: ');
        expect(result.json<{ message: string }>().message).toContain(message);
      }
      expect((await gw.admin('GET', '/gw/apis')).json<{ name: string }[]>().some((a) => a.name === 'x')).toBe(false);
    });
  });

  describe('/gw/apis/oas', () => {
    it('creates, reads in both forms, updates and deletes an OAS API', async () => {
      const created = await gw.admin('POST', '/gw/apis/oas', oasApi('pets', '/pets-api/', upstream.url));
      expect(created.json()).toEqual({ key: 'pets', status: 'ok', action: 'added' });
      await gw.reload();
      expect((await gw.call('/pets-api/pets')).json()).toMatchObject({ url: '/pets' });
      const doc = (await gw.admin('GET', '/gw/apis/oas/pets')).json<Record<string, unknown>>();
      expect(doc).toMatchObject({ openapi: '3.0.3', 'x-gw-api-gateway': { info: { id: 'pets' } } });
      expect((await gw.admin('GET', '/gw/apis/pets')).json()).toMatchObject({ api_id: 'pets', use_keyless: true, proxy: { listen_path: '/pets-api/' } });
      expect((await gw.admin('GET', '/gw/apis/oas')).json<unknown[]>().length).toBeGreaterThan(0);

      expect((await gw.admin('PUT', '/gw/apis/oas/pets', oasApi('pets', '/pets-v2/', upstream.url))).status).toBe(200);
      await gw.reload();
      expect((await gw.call('/pets-v2/pets')).status).toBe(200);
      expect((await gw.admin('DELETE', '/gw/apis/oas/pets')).json()).toEqual({ key: 'pets', status: 'ok', action: 'deleted' });
    });

    it('refuses a document without x-gw-api-gateway', async () => {
      const { 'x-gw-api-gateway': _, ...plain } = oasApi('no-ext', '/no-ext', upstream.url);
      const result = await gw.admin('POST', '/gw/apis/oas', plain);
      expect(result.status).toBe(400);
      expect(result.json()).toEqual({ status: 'error', message: 'the payload should contain x-gw-api-gateway' });
    });

    it('keeps the Classic and OAS endpoints apart', async () => {
      await addApi(gw, classicApi('classic-only', '/classic-only', upstream.url));
      expect((await gw.admin('GET', '/gw/apis/oas/classic-only')).json()).toEqual({
        status: 'error',
        message: 'the requested API definition is in gw classic format, please use old api endpoint',
      });
      await gw.admin('POST', '/gw/apis/oas', oasApi('oas-only', '/oas-only', upstream.url));
      const put = await gw.admin('PUT', '/gw/apis/oas-only', classicApi('oas-only', '/oas-only', upstream.url));
      expect(put.json<{ message: string }>().message).toBe('this API endpoint only supports gw Classic APIs; please use the appropriate gw OAS API endpoint');
    });
  });

  describe('/gw/policies', () => {
    it('creates with an explicit id, reads, updates, lists and deletes', async () => {
      const created = await gw.admin('POST', '/gw/policies', { id: 'gold', name: 'Gold', rate: 10, per: 1, access_rights: {} });
      expect(created.json()).toEqual({ key: 'gold', status: 'ok', action: 'added' });
      expect((await gw.admin('GET', '/gw/policies/gold')).json()).toMatchObject({ id: 'gold', name: 'Gold', rate: 10 });
      expect((await gw.admin('PUT', '/gw/policies/gold', { name: 'Gold', rate: 20, per: 1 })).json()).toEqual({
        key: 'gold',
        status: 'ok',
        action: 'modified',
      });
      expect((await gw.admin('GET', '/gw/policies')).json<{ id: string; rate: number }[]>().find((p) => p.id === 'gold')?.rate).toBe(20);
      expect((await gw.admin('POST', '/gw/policies/silver', { name: 'Silver' })).json()).toEqual({ key: 'silver', status: 'ok', action: 'added' });
      expect((await gw.admin('DELETE', '/gw/policies/gold')).json()).toEqual({ key: 'gold', status: 'ok', action: 'deleted' });
      expect(await gw.admin('GET', '/gw/policies/gold')).toMatchObject({ status: 404, text: '{"status":"error","message":"Policy not found"}\n' });
    });

    it('refuses a mismatched id, an unknown id and limits outside the documented table', async () => {
      expect((await gw.admin('PUT', '/gw/policies/a', { id: 'b', name: 'x' })).json<{ message: string }>().message).toBe(
        'Request ID does not match that in policy! For Update operations these must match.',
      );
      expect((await gw.admin('PUT', '/gw/policies/never', { name: 'x' })).status).toBe(404);
      expect((await gw.admin('DELETE', '/gw/policies/never')).status).toBe(404);
      const bad = await gw.admin('POST', '/gw/policies', { id: 'q', name: 'q', quota_max: 0 });
      expect(bad.status).toBe(400);
      expect(bad.json<{ message: string }>().message).toContain('quota_max must be -1 (unlimited) or a positive integer');
      expect((await gw.admin('POST', '/gw/policies', { id: 's', name: 's', state: 'paused' })).json<{ message: string }>().message).toContain('state');
    });
  });

  describe('/gw/reload and /gw/certs', () => {
    it("answers reloads with Tyk's body", async () => {
      for (const path of ['/gw/reload', '/gw/reload?block=true', '/gw/reload/group']) {
        expect((await gw.admin('GET', path)).text).toBe('{"status":"ok","message":""}\n');
      }
    });

    it('stores certificates by org + SHA-256 fingerprint and never returns private keys', async () => {
      const pem = CERT;
      const added = await gw.admin('POST', '/gw/certs?org_id=org1', pem, { 'content-type': 'text/plain' });
      expect(added.status).toBe(200);
      const { id } = added.json<{ id: string }>();
      expect(id).toMatch(/^org1[0-9a-f]{64}$/);
      expect(added.json()).toMatchObject({ status: 'ok', message: 'Certificate added' });
      expect((await gw.admin('GET', '/gw/certs')).json()).toEqual({ certs: [id] });
      const meta = (await gw.admin('GET', `/gw/certs/${id}`)).json<Record<string, unknown>>();
      expect(meta).toMatchObject({ id, has_private: false, is_ca: false, dns_names: ['gw.test'] });
      expect(JSON.stringify(meta)).not.toContain('BEGIN');
      expect((await gw.admin('GET', `/gw/certs/${id},missing`)).json<unknown[]>()[1]).toBeNull();
      expect((await gw.admin('GET', '/gw/certs/missing')).json()).toEqual({ status: 'error', message: 'Certificate with given SHA256 fingerprint not found' });
      expect((await gw.admin('POST', '/gw/certs', 'not a certificate', { 'content-type': 'text/plain' })).status).toBe(400);
      expect((await gw.admin('DELETE', `/gw/certs/${id}`)).json()).toEqual({ status: 'ok', message: 'removed' });
      expect((await gw.admin('DELETE', '/gw/certs/never')).json()).toEqual({ status: 'ok', message: 'removed' });
    });
  });

  describe('bad input on every endpoint', () => {
    const writes: [string, 'POST' | 'PUT'][] = [
      ['/gw/apis', 'POST'],
      ['/gw/apis/stable', 'PUT'],
      ['/gw/apis/oas', 'POST'],
      ['/gw/policies', 'POST'],
      ['/gw/policies/gold', 'PUT'],
      ['/gw/keys/create', 'POST'],
      ['/gw/keys', 'POST'],
      ['/gw/keys/custom-key-id', 'POST'],
      ['/gw/org/keys/org1', 'POST'],
    ];

    it('answers malformed JSON with 400 saying the request is malformed', async () => {
      for (const [path, method] of writes) {
        const result = await gw.admin(method, path, '{"name": "x",');
        expect(result.status, `${method} ${path}`).toBe(400);
        expect(result.json<{ message: string }>().message, `${method} ${path}`).toMatch(/^(Request malformed|Validation of API Definition failed)/);
      }
    });

    it('answers an empty or non-object body with 400', async () => {
      for (const [path, method] of writes) {
        expect((await gw.admin(method, path, '')).status, `${method} ${path} empty`).toBe(400);
        expect((await gw.admin(method, path, '[1,2]')).status, `${method} ${path} array`).toBe(400);
      }
    });

    it('names the field of a wrong type', async () => {
      expect((await gw.admin('POST', '/gw/keys/create', { rate: 'ten', access_rights: {} })).json<{ message: string }>().message).toContain('rate');
      expect((await gw.admin('POST', '/gw/policies', { name: 'p', per: [1] })).json<{ message: string }>().message).toContain('per');
      expect(
        (await gw.admin('POST', '/gw/apis', { name: 'x', proxy: { listen_path: 5, target_url: upstream.url } })).json<{ message: string }>().message,
      ).toContain('proxy.listen_path');
    });

    it('answers 413 for a body over control_api_max_body_bytes, and stores nothing', async () => {
      const huge = JSON.stringify({ ...classicApi('huge', '/huge', upstream.url), config_data: { blob: 'x'.repeat(100 * 1024) } });
      const result = await gw.admin('POST', '/gw/apis', huge);
      expect(result.status).toBe(413);
      expect(result.json<{ message: string }>().message).toContain('Request body too large');
      expect((await gw.admin('GET', '/gw/apis/huge')).status).toBe(404);
    });

    it('answers unknown ids with 404', async () => {
      expect((await gw.admin('GET', '/gw/apis/nope')).status).toBe(404);
      expect((await gw.admin('PUT', '/gw/apis/nope', classicApi('nope', '/nope', upstream.url))).status).toBe(404);
      expect((await gw.admin('DELETE', '/gw/apis/nope')).status).toBe(404);
      expect((await gw.admin('GET', '/gw/apis/oas/nope')).status).toBe(404);
      expect((await gw.admin('GET', '/gw/keys/nope-nope')).json()).toEqual({ status: 'error', message: 'Key not found' });
      expect((await gw.admin('PUT', '/gw/keys/nope-nope', { access_rights: {} })).json()).toEqual({ status: 'error', message: 'Key is not found' });
      expect((await gw.admin('DELETE', '/gw/keys/nope-nope')).json()).toEqual({ status: 'error', message: 'There is no such key found' });
      expect((await gw.admin('GET', '/gw/org/keys/nope')).json()).toEqual({ status: 'error', message: 'Org not found' });
    });

    it('is still healthy after all of it', async () => {
      expect((await http(`${gw.controlUrl}/hello`)).status).toBe(200);
      expect(gw.output()).not.toContain('"level":50'); // no internal error was logged
    });
  });
});
