// config/samples/oauth2_client_credentials.yaml (Tyk Operator's OAuth 2.0 client-credentials sample) on the real
// control plane: applied with kubectl, synced by a real operator to a real gateway; a client created with the
// SecurityPolicy's id (status.pol_id) gets a token by the client_credentials grant, and the token calls the API.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/up/paths.ts';
import { installCrds } from '../../support/crds.ts';
import { startGateway } from '../../support/gateway.ts';
import { kubectl, useNamespace } from '../../support/kubectl.ts';
import { startOperator } from '../../support/operator.ts';
import { synced, waitFor } from '../../support/resources.ts';
import { startUpstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

describe('the OAuth 2.0 client-credentials sample', () => {
  const ns = useNamespace('oauth2-sample');
  beforeAll(installCrds);

  it('syncs; a client with the policy gets a token that calls the API', async () => {
    const upstream = await startUpstream();
    const gw = await startGateway();
    await startOperator({ gateway: gw, namespace: ns.name });
    const sample = readFileSync(join(REPO_ROOT, 'config', 'samples', 'oauth2_client_credentials.yaml'), 'utf8').replaceAll(
      'http://127.0.0.1:18080',
      upstream.url,
    );
    await kubectl(['apply', '-n', ns.name, '-f', '-'], { input: sample });
    const api = await waitFor('apidefinition', ns.name, 'client-credentials-api', synced);
    const policy = await waitFor('securitypolicy', ns.name, 'client-credentials-policy', synced);
    const apiId = api!.status!.api_id as string;
    const policyId = policy!.status!.pol_id as string;

    const created = await gw.admin('POST', '/gw/oauth/clients/create', { api_id: apiId, policy_id: policyId });
    expect(created.status, created.text).toBe(200);
    const client = created.json<{ client_id: string; secret: string }>();
    // The operator's reload may still be on its way when the resources report synced: polled until the API serves.
    const issued = await waitUntil('the API to be served', async () => {
      const answer = await gw.call('/oauth-client-credentials/oauth/token', {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${client.client_id}:${client.secret}`).toString('base64')}`,
        },
        body: 'grant_type=client_credentials',
      });
      return answer.status !== 404 && answer;
    });
    expect(issued.status, issued.text).toBe(200);
    const { access_token } = issued.json<{ access_token: string }>();
    const answer = await gw.call('/oauth-client-credentials/get', { headers: { authorization: `Bearer ${access_token}` } });
    expect([answer.status, answer.json<{ url: string }>().url]).toEqual([200, '/get']);
    expect((await gw.call('/oauth-client-credentials/get')).status).toBe(400);
  });
});
