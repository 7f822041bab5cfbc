// The classic portal's admin API, part 1: catalogue, documentation and configuration on a real dashboard on a real
// PostgreSQL (and on the embedded PGlite), with Tyk's payloads (docs/compatibility.md): the operator's
// calls (catalogue GET/POST/PUT, documentation POST/DELETE, configuration GET/POST/PUT) answer what its controllers
// read (`Message` = id, 404 before creation); bad input is a 400 naming the field; another organisation's
// catalogue, documents, configuration and policies are invisible (404, or refused exactly like a reference to
// nothing); the `portal` permission guards every endpoint; in an operator_managed organisation only the operator's
// system user writes the catalogue, documentation and configuration.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicApi, createOrg, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { ENGINES, useDatabases } from '../../support/postgres.ts';

const base64 = (text: string): string => Buffer.from(text).toString('base64');
const OPENAPI = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Shop', version: '1' },
  paths: { '/items': { get: { responses: { '200': { description: 'ok' } } } } },
});
const SWAGGER_YAML = 'swagger: "2.0"\ninfo:\n  title: Shop\n  version: "1"\npaths: {}\n';

interface Ok {
  Status: string;
  Message: string;
  Meta: unknown;
}

describe.each(ENGINES)('portal admin API on %s: catalogue, documentation, configuration', (engine) => {
  const databases = useDatabases(engine);
  let dashboard: RunningDashboard;
  let orgA: TestOrg;
  let orgB: TestOrg;
  let policyA: string;
  let policyB: string;

  const policyIn = async (org: TestOrg, name: string): Promise<string> => {
    const api = await org.call('POST', '/api/apis', classicApi(name, `/${name}/`));
    expect(api.status, api.text).toBe(200);
    const apiId = api.json<{ Meta: string }>().Meta;
    const created = await org.call('POST', '/api/portal/policies', {
      name: `${name} plan`,
      state: 'active',
      access_rights: { [apiId]: { api_id: apiId, versions: [] } },
    });
    expect(created.status, created.text).toBe(200);
    return created.json<Ok>().Message;
  };
  const ok = (answer: { status: number; text: string; json<T>(): T }): string => {
    expect(answer.status, answer.text).toBe(200);
    const body = answer.json<Ok>();
    expect(body).toEqual({ Status: 'OK', Message: expect.any(String) as string, Meta: null });
    return body.Message;
  };
  const refused = (answer: { status: number; text: string }, status: number, field: string): void => {
    expect(answer.status, answer.text).toBe(status);
    expect(answer.text).toContain(field);
  };

  beforeAll(async () => {
    dashboard = await startDashboard(databases.config());
    orgA = await createOrg(dashboard, 'Team A');
    orgB = await createOrg(dashboard, 'Team B');
    policyA = await policyIn(orgA, 'shop');
    policyB = await policyIn(orgB, 'other');
  });
  afterAll(async () => {
    await dashboard?.stop();
  });

  it('stores documentation by id as sent (base64 Swagger/OpenAPI, URL), deletes it, and refuses what is not a document', async () => {
    const json = ok(await orgA.call('POST', '/api/portal/documentation', { api_id: '', doc_type: 'swagger', documentation: base64(OPENAPI) }));
    const yaml = ok(await orgA.call('POST', '/api/portal/documentation/', { api_id: policyA, doc_type: 'swagger', documentation: base64(SWAGGER_YAML) }));
    const url = ok(
      await orgA.call('POST', '/api/portal/documentation', {
        api_id: policyA,
        doc_type: 'swagger_custom_url',
        documentation: 'https://docs.example.test/openapi.json',
      }),
    );
    expect(new Set([json, yaml, url]).size).toBe(3);
    expect((await orgA.call('GET', `/api/portal/documentation/${json}`)).json()).toEqual({
      id: json,
      api_id: '',
      doc_type: 'swagger',
      documentation: base64(OPENAPI),
    });
    expect((await orgA.call('GET', `/api/portal/documentation/${url}`)).json()).toMatchObject({
      doc_type: 'swagger_custom_url',
      documentation: 'https://docs.example.test/openapi.json',
    });

    refused(await orgA.call('POST', '/api/portal/documentation', { doc_type: 'swagger', documentation: OPENAPI }), 400, 'documentation: must be base64');
    refused(
      await orgA.call('POST', '/api/portal/documentation', { doc_type: 'swagger', documentation: base64('{"title": "not a spec"}') }),
      400,
      'documentation: the decoded document is not Swagger 2.0 or OpenAPI 3.x',
    );
    refused(
      await orgA.call('POST', '/api/portal/documentation', { doc_type: 'swagger_custom_url', documentation: 'ftp://example.test/x' }),
      400,
      'documentation: must be an http(s) URL',
    );
    refused(await orgA.call('POST', '/api/portal/documentation', { doc_type: 'pdf', documentation: 'x' }), 400, 'doc_type');
    refused(await orgA.call('POST', '/api/portal/documentation', { doc_type: 'swagger' }), 400, 'documentation');
    refused(await orgA.call('POST', '/api/portal/documentation', '[1]'), 400, 'the documentation');

    // Another organisation sees none of it and cannot delete it.
    expect((await orgB.call('GET', `/api/portal/documentation/${json}`)).status).toBe(404);
    expect((await orgB.call('DELETE', `/api/portal/documentation/${json}`)).status).toBe(404);
    expect((await orgA.call('GET', `/api/portal/documentation/${json}`)).status).toBe(200);

    expect((await orgA.call('DELETE', `/api/portal/documentation/${yaml}`)).json()).toEqual({ Status: 'OK', Message: 'Data deleted', Meta: null });
    expect((await orgA.call('GET', `/api/portal/documentation/${yaml}`)).status).toBe(404);
    expect((await orgA.call('DELETE', `/api/portal/documentation/${yaml}`)).status).toBe(404);
  });

  it('keeps one catalogue per organisation: 404 before POST, entries naming its policies and documents, 409 on a second POST', async () => {
    expect((await orgA.call('GET', '/api/portal/catalogue')).status).toBe(404);
    const id = ok(await orgA.call('POST', '/api/portal/catalogue', { org_id: orgA.id }));
    expect((await orgA.call('GET', '/api/portal/catalogue/')).json()).toEqual({ id, org_id: orgA.id, email: '', apis: [] });
    refused(await orgA.call('POST', '/api/portal/catalogue', { org_id: orgA.id }), 409, 'already has a catalogue');

    const doc = ok(await orgA.call('POST', '/api/portal/documentation', { api_id: policyA, doc_type: 'swagger', documentation: base64(OPENAPI) }));
    const entry = {
      name: 'Shop',
      short_description: 'Buy things',
      long_description: '# Shop',
      show: true,
      policy_id: policyA,
      documentation: doc,
      auth_type: 'authToken',
      fields: { team: 'a' },
    };
    expect(ok(await orgA.call('PUT', '/api/portal/catalogue', { id, org_id: orgA.id, email: 'api@a.test', apis: [entry] }))).toBe(id);
    expect((await orgA.call('GET', '/api/portal/catalogue')).json()).toEqual({
      id,
      org_id: orgA.id,
      email: 'api@a.test',
      apis: [{ ...entry, api_id: '', version: 'v2', is_keyless: false }],
    });

    // References to another organisation's policy or document are refused like references to nothing.
    refused(
      await orgA.call('PUT', '/api/portal/catalogue', { id, apis: [{ ...entry, policy_id: policyB }] }),
      400,
      `apis[0].policy_id: policy ${policyB} not found in this organisation`,
    );
    refused(
      await orgA.call('PUT', '/api/portal/catalogue', { id, apis: [{ ...entry, policy_id: 'nothing' }] }),
      400,
      'apis[0].policy_id: policy nothing not found in this organisation',
    );
    const docB = ok(await orgB.call('POST', '/api/portal/documentation', { doc_type: 'graphql', documentation: 'type Query { a: Int }' }));
    refused(
      await orgA.call('PUT', '/api/portal/catalogue', { id, apis: [entry, { ...entry, documentation: docB }] }),
      400,
      `apis[1].documentation: documentation ${docB} not found in this organisation`,
    );
    refused(await orgA.call('PUT', '/api/portal/catalogue', { id, apis: [{ ...entry, name: '' }] }), 400, 'apis[0].name');
    refused(await orgA.call('PUT', '/api/portal/catalogue', { id, apis: [{ ...entry, auth_type: 'magic' }] }), 400, 'apis[0].auth_type');
    refused(await orgA.call('PUT', '/api/portal/catalogue', { id, apis: [{ ...entry, show: 'yes' }] }), 400, 'apis[0].show');
    refused(await orgA.call('PUT', '/api/portal/catalogue', { id, org_id: orgB.id, apis: [] }), 400, 'org_id');
    expect((await orgA.call('GET', '/api/portal/catalogue')).json<{ apis: unknown[] }>().apis).toHaveLength(1);

    // Organisation B has no catalogue until it makes one, and never reaches A's (not even by naming its id).
    expect((await orgB.call('GET', '/api/portal/catalogue')).status).toBe(404);
    expect((await orgB.call('PUT', '/api/portal/catalogue', { id, apis: [] })).status).toBe(404);
    const idB = ok(await orgB.call('POST', '/api/portal/catalogue', {}));
    expect(idB).not.toBe(id);
    expect((await orgB.call('PUT', '/api/portal/catalogue', { id, apis: [] })).status).toBe(404);
    expect((await orgB.call('GET', '/api/portal/catalogue')).json()).toEqual({ id: idB, org_id: orgB.id, email: '', apis: [] });

    // The operator empties a catalogue on deletion with a PUT without entries; there is no DELETE.
    expect(ok(await orgA.call('PUT', '/api/portal/catalogue', { id, org_id: orgA.id }))).toBe(id);
    expect((await orgA.call('GET', '/api/portal/catalogue')).json<{ apis: unknown[] }>().apis).toEqual([]);
    expect((await orgA.call('DELETE', '/api/portal/catalogue')).status).toBe(405);
  });

  it('keeps one configuration per organisation: every field answered with its default, HashKeys added, PUT after POST', async () => {
    expect((await orgA.call('GET', '/api/portal/configuration')).status).toBe(404);
    const id = ok(await orgA.call('POST', '/api/portal/configuration', {}));
    const created = (await orgA.call('GET', '/api/portal/configuration')).json<Record<string, unknown>>();
    expect(created).toMatchObject({
      id,
      org_id: orgA.id,
      HashKeys: true,
      signup_fields: [],
      key_request_fields: [],
      require_key_approval: false,
      secure_key_approval: false,
      disable_signup: false,
      disable_login: false,
      catalogue_login_only: false,
      oauth_usage_limit: -1,
      mail_options: { mail_from_name: '', email_copy: { key_email: { enabled: false, subject: '' } } },
    });
    refused(await orgA.call('POST', '/api/portal/configuration', {}), 409, 'already has a portal configuration');

    const settings = {
      id: 'ignored',
      org_id: orgB.id,
      signup_fields: ['Company'],
      key_request_fields: ['Use case'],
      require_key_approval: true,
      disable_signup: true,
      redirect_to: 'https://a.test/thanks',
    };
    expect(ok(await orgA.call('PUT', '/api/portal/configuration', settings))).toBe(id);
    expect((await orgA.call('GET', '/api/portal/configuration')).json()).toMatchObject({ ...settings, id, org_id: orgA.id });

    refused(await orgA.call('PUT', '/api/portal/configuration', { require_key_approval: 'yes' }), 400, 'require_key_approval');
    refused(await orgA.call('PUT', '/api/portal/configuration', { signup_fields: [''] }), 400, 'signup_fields[0]');
    refused(await orgA.call('PUT', '/api/portal/configuration', { dcr_options: { provider: 'acme' } }), 400, 'dcr_options.provider');
    expect((await orgA.call('GET', '/api/portal/configuration')).json()).toMatchObject({ require_key_approval: true });

    // B's configuration is its own: absent until written, then created by a PUT without touching A's.
    expect((await orgB.call('GET', '/api/portal/configuration')).status).toBe(404);
    const idB = ok(await orgB.call('PUT', '/api/portal/configuration', { disable_login: true }));
    expect(idB).not.toBe(id);
    expect((await orgB.call('GET', '/api/portal/configuration')).json()).toMatchObject({
      id: idB,
      org_id: orgB.id,
      disable_login: true,
      require_key_approval: false,
    });
    expect((await orgA.call('GET', '/api/portal/configuration')).json()).toMatchObject({ id, disable_login: false, require_key_approval: true });
  });

  it('is guarded by the portal permission: deny refuses everything, read refuses writes', async () => {
    const denied = dashboard.as(await orgA.user({ apis: 'write', policies: 'write', keys: 'write' }));
    const reader = dashboard.as(await orgA.user({ portal: 'read' }));
    for (const [method, path] of [
      ['GET', '/api/portal/catalogue'],
      ['PUT', '/api/portal/catalogue'],
      ['POST', '/api/portal/documentation'],
      ['GET', '/api/portal/configuration'],
      ['GET', '/api/portal/developers'],
      ['GET', '/api/portal/requests'],
    ] as const) {
      refused(await denied(method, path, method === 'GET' ? undefined : {}), 403, 'requires portal');
    }
    expect((await reader('GET', '/api/portal/configuration')).status).toBe(200);
    expect((await reader('GET', '/api/portal/catalogue')).status).toBe(200);
    refused(await reader('PUT', '/api/portal/configuration', {}), 403, 'requires portal write');
    refused(await reader('POST', '/api/portal/documentation', { doc_type: 'graphql', documentation: 'x' }), 403, 'requires portal write');
    expect((await dashboard.anonymous('GET', '/api/portal/catalogue')).status).toBe(401);
  });

  it('reserves catalogue, documentation and configuration writes of an operator_managed organisation to its system user', async () => {
    const managed = await createOrg(dashboard, 'Managed');
    expect((await dashboard.admin('PUT', `/admin/organisations/${managed.id}`, { operator_managed: true })).status).toBe(200);
    const operator = dashboard.as(await managed.user({ portal: 'write', policies: 'write', apis: 'write' }, { system: true }));
    for (const [method, path, body] of [
      ['POST', '/api/portal/catalogue', {}],
      ['POST', '/api/portal/configuration', {}],
      ['POST', '/api/portal/documentation', { doc_type: 'graphql', documentation: 'type Query { a: Int }' }],
    ] as const) {
      refused(await managed.call(method, path, body), 403, 'managed by the operator');
      ok(await operator(method, path, body));
    }
    expect((await managed.call('GET', '/api/portal/catalogue')).status).toBe(200);
    expect((await managed.call('GET', '/api/portal/configuration')).status).toBe(200);
    refused(await managed.call('PUT', '/api/portal/configuration', {}), 403, 'Portal configuration settings of this organisation are managed by the operator');
    // Developers and key requests are the organisation's own business, not the operator's.
    ok(await managed.call('POST', '/api/portal/developers', { email: 'dev@managed.test', password: 'managed password' }));
  });
});
