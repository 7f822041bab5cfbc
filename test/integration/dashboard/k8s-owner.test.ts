// Objects the operator writes from a Kubernetes object are refused to hand writes (issue 24 item 8), on a real
// dashboard over PGlite and PostgreSQL: the operator's system user names the object in x-gw-k8s-object and keeps
// writing; a person with write permission gets 409 naming `<Kind> <namespace>/<name>` on PUT and DELETE of the API
// (Classic and OAS) and the policy, unless the organisation sets allow_hand_edits; objects nobody owns stay editable.
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, createOrg, oasApi, startDashboard, type Call, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { ENGINES, useDatabases } from '../../support/postgres.ts';

const OWNER = 'x-gw-k8s-object';

describe.each(ENGINES)('Kubernetes-owned objects on %s', (engine) => {
  const db = useDatabases(engine);
  let dashboard: RunningDashboard;
  let org: TestOrg;
  let operator: Call;
  beforeAll(async () => {
    dashboard = await startDashboard({ ...db.config(), allow_explicit_policy_id: true });
    org = await createOrg(dashboard, 'Owned');
    operator = dashboard.as(await org.user({ apis: 'write', policies: 'write' }, { system: true }));
  });

  it('refuses a person PUT and DELETE of a Classic API the operator wrote, naming the ApiDefinition; the operator keeps writing', async () => {
    const created = await operator(
      'POST',
      '/api/apis',
      { api_definition: classicApi('owned', '/owned/', { api_id: 'owned1' }) },
      { [OWNER]: 'ApiDefinition team-a/httpbin' },
    );
    expect(created.status).toBe(200);

    const read = await org.call('GET', '/api/apis/owned1');
    expect(read.headers[OWNER]).toBe('ApiDefinition team-a/httpbin');

    const edit = await org.call('PUT', '/api/apis/owned1', classicApi('edited', '/owned/'));
    expect(edit.status).toBe(409);
    expect(edit.json()).toEqual({
      Status: 'Error',
      Message: expect.stringContaining('API owned1 is managed by Kubernetes (ApiDefinition team-a/httpbin)') as string,
    });
    expect(edit.json<{ Message: string }>().Message).toContain('kubectl edit apidefinition -n team-a httpbin');
    expect((await org.call('DELETE', '/api/apis/owned1')).status).toBe(409);
    expect((await org.call('GET', '/api/apis/owned1')).json<{ api_definition: { name: string } }>().api_definition.name).toBe('owned');

    expect((await operator('PUT', '/api/apis/owned1', classicApi('renamed', '/owned/'), { [OWNER]: 'ApiDefinition team-a/httpbin' })).status).toBe(200);
    expect((await org.call('GET', '/api/apis/owned1')).json<{ api_definition: { name: string } }>().api_definition.name).toBe('renamed');
  });

  it('refuses a person write to an OAS API and a policy the operator wrote, each naming its kind', async () => {
    const api = await operator('POST', '/api/apis/oas', oasApi('owned oas', '/owned-oas/', 'ownedoas1'), { [OWNER]: 'TykOasApiDefinition team-b/petstore' });
    expect(api.status).toBe(200);
    const policy = await operator(
      'POST',
      '/api/portal/policies',
      { id: 'ownedpolicy1', name: 'owned policy', rate: 10, per: 1, access_rights: {} },
      { [OWNER]: 'SecurityPolicy team-b/gold' },
    );
    expect(policy.status).toBe(200);

    const oasEdit = await org.call('PUT', '/api/apis/oas/ownedoas1', oasApi('edited', '/owned-oas/', 'ownedoas1'));
    expect(oasEdit.status).toBe(409);
    expect(oasEdit.json<{ Message: string }>().Message).toContain('(TykOasApiDefinition team-b/petstore)');
    const policyEdit = await org.call('PUT', '/api/portal/policies/ownedpolicy1', { name: 'edited', rate: 1, per: 1, access_rights: {} });
    expect(policyEdit.status).toBe(409);
    expect(policyEdit.json<{ Message: string }>().Message).toContain('Policy ownedpolicy1 is managed by Kubernetes (SecurityPolicy team-b/gold)');
  });

  it('leaves objects nobody owns editable, ignores the header from a person, and forgets the owner on the operator delete', async () => {
    expect(
      (await org.call('POST', '/api/apis', classicApi('by hand', '/by-hand/', { api_id: 'byhand1' }), { [OWNER]: 'ApiDefinition team-a/claimed' })).status,
    ).toBe(200);
    expect((await org.call('PUT', '/api/apis/byhand1', classicApi('by hand, edited', '/by-hand/'))).status).toBe(200);

    await operator('POST', '/api/apis', { api_definition: classicApi('gone', '/gone/', { api_id: 'gone1' }) }, { [OWNER]: 'ApiDefinition team-a/gone' });
    expect((await operator('DELETE', '/api/apis/gone1')).status).toBe(200);
    expect((await org.call('POST', '/api/apis', classicApi('again', '/gone/', { api_id: 'gone1' }))).status).toBe(200);
    expect((await org.call('PUT', '/api/apis/gone1', classicApi('again, edited', '/gone/'))).status).toBe(200);
  });

  it('lets people edit owned objects in an organisation with allow_hand_edits', async () => {
    const relaxed = await createOrg(dashboard, 'Relaxed');
    expect((await dashboard.admin('PUT', `/admin/organisations/${relaxed.id}`, { allow_hand_edits: true })).status).toBe(200);
    expect((await dashboard.admin('GET', `/admin/organisations/${relaxed.id}`)).json()).toMatchObject({ allow_hand_edits: true, operator_managed: false });
    const relaxedOperator = dashboard.as(await relaxed.user({ apis: 'write' }, { system: true }));
    await relaxedOperator(
      'POST',
      '/api/apis',
      { api_definition: classicApi('relaxed', '/relaxed/', { api_id: 'relaxed1' }) },
      { [OWNER]: 'ApiDefinition team-c/relaxed' },
    );
    expect((await relaxed.call('PUT', '/api/apis/relaxed1', classicApi('edited by hand', '/relaxed/'))).status).toBe(200);
  });
});
