// Which APIs use a certificate (GET /api/certs/{id}/apis) and the refusal to delete one while an API names it (409
// naming those APIs), on PGlite: an API serving it (`certificates`) and one presenting it upstream
// (`upstream_certificates`); once neither names it, it deletes. Another organisation's APIs never count.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/up/paths.ts';
import { classicApi, createOrg, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { useDatabases } from '../../support/postgres.ts';

const FIXTURE = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'gw.test.crt'), 'utf8');
const fingerprint = new X509Certificate(FIXTURE).fingerprint256.replaceAll(':', '').toLowerCase();

describe('certificates in use by APIs', () => {
  const db = useDatabases('pglite');
  let dashboard: RunningDashboard;
  let a: TestOrg;
  let b: TestOrg;
  beforeAll(async () => {
    dashboard = await startDashboard(db.config());
    [a, b] = await Promise.all([createOrg(dashboard, 'A'), createOrg(dashboard, 'B')]);
  });

  const createApi = async (org: TestOrg, definition: Record<string, unknown>): Promise<string> => {
    const created = await org.call('POST', '/api/apis', { api_definition: definition });
    expect(created.status).toBe(200);
    return created.json<{ Meta: string }>().Meta;
  };

  it('names the APIs using a certificate and refuses its deletion until none does', async () => {
    const id = (await a.call('POST', '/api/certs', FIXTURE, { 'content-type': 'text/plain' })).json<{ id: string }>().id;
    expect(id).toBe(`${a.id}${fingerprint}`);
    const serving = await createApi(a, classicApi('Serving', '/serving/', { certificates: [id] }));
    const upstream = await createApi(a, classicApi('Upstream mTLS', '/upstream/', { upstream_certificates: { '*.internal': id } }));
    await createApi(a, classicApi('Unrelated', '/unrelated/'));
    // B uses its own copy of the same certificate: never counted for A's.
    const idB = (await b.call('POST', '/api/certs', FIXTURE, { 'content-type': 'text/plain' })).json<{ id: string }>().id;
    await createApi(b, classicApi('B serving', '/b-serving/', { certificates: [idB] }));

    expect((await a.call('GET', `/api/certs/${id}/apis`)).json()).toEqual({
      apis: [
        { api_id: serving, name: 'Serving' },
        { api_id: upstream, name: 'Upstream mTLS' },
      ],
    });
    const refused = await a.call('DELETE', `/api/certs/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.json()).toEqual({
      Status: 'Error',
      Message: `Certificate ${id} is used by Serving (${serving}), Upstream mTLS (${upstream}): remove it from those APIs first`,
    });
    expect((await a.call('GET', `/api/certs/${id}`)).status).toBe(200);

    await a.call('DELETE', `/api/apis/${serving}`);
    await a.call('DELETE', `/api/apis/${upstream}`);
    expect((await a.call('GET', `/api/certs/${id}/apis`)).json()).toEqual({ apis: [] });
    expect((await a.call('DELETE', `/api/certs/${id}`)).status).toBe(200);
    expect((await a.call('GET', `/api/certs/${id}/apis`)).status).toBe(404);
    expect((await b.call('DELETE', `/api/certs/${idB}`)).status).toBe(409);
  });
});
