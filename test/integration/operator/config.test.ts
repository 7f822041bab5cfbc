// The operator process's configuration on the real control plane: it refuses to start with one line per missing
// key, and without GW_* in its environment it reads them from the secret gw-operator-conf (as the Helm chart
// installs it) and runs.
import { beforeAll, describe, expect, it } from 'vitest';
import { idFor } from '../../../src/operator/sync/ids.ts';
import { runGw } from '../../support/cli.ts';
import { installCrds } from '../../support/crds.ts';
import { SECRET, startGateway } from '../../support/gateway.ts';
import { clusterEnv, kubectl, useNamespace } from '../../support/kubectl.ts';
import { startOperator } from '../../support/operator.ts';
import { apply, manifest, synced, waitFor } from '../../support/resources.ts';

const REQUIRED = ['GW_OPERATOR_LICENSEKEY', 'GW_MODE', 'GW_URL', 'GW_AUTH', 'GW_ORG'];
const unset = Object.fromEntries(REQUIRED.map((key) => [key, undefined]));

describe('operator configuration', () => {
  const ns = useNamespace('opconf');
  beforeAll(installCrds);

  it('refuses to start without its required keys, one line per key, exit code 2', async () => {
    const result = await runGw(['operator', '--metrics-bind-address', '127.0.0.1:0', '--health-probe-bind-address', '127.0.0.1:0'], {
      ...clusterEnv(),
      ...unset,
      POD_NAMESPACE: ns.name,
    });
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toBe('gw operator: invalid operator configuration:');
    expect(lines.slice(1).map((line) => line.trim().split(':')[0])).toEqual(REQUIRED);
  });

  it('refuses an invalid value naming the key and not echoing it', async () => {
    const result = await runGw(['operator'], {
      ...clusterEnv(),
      GW_OPERATOR_LICENSEKEY: 'l',
      GW_MODE: 'ce',
      GW_URL: 'ftp//nope',
      GW_AUTH: 'super-secret-auth',
      GW_ORG: 'o',
      GW_HTTP_INGRESS_PORT: 'eighty',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^ {2}GW_URL: /m);
    expect(result.stderr).toMatch(/^ {2}GW_HTTP_INGRESS_PORT: /m);
    expect(result.stderr).not.toContain('super-secret-auth');
  });

  it('reads the keys the environment lacks from the secret gw-operator-conf', async () => {
    const gw = await startGateway();
    const literals = { GW_OPERATOR_LICENSEKEY: 'l', GW_MODE: 'ce', GW_URL: gw.controlUrl, GW_AUTH: SECRET, GW_ORG: 'secret-org', WATCH_NAMESPACE: ns.name };
    await kubectl(['create', 'secret', 'generic', 'gw-operator-conf', '-n', ns.name, ...Object.entries(literals).map(([k, v]) => `--from-literal=${k}=${v}`)]);
    await startOperator({ gateway: gw, namespace: ns.name, env: { ...unset, WATCH_NAMESPACE: undefined, POD_NAMESPACE: ns.name } });
    await apply(
      ns.name,
      manifest('ApiDefinition', 'configured', {
        name: 'configured',
        use_keyless: true,
        proxy: { listen_path: '/configured', target_url: 'http://127.0.0.1:9' },
      }),
    );
    await waitFor('apidefinition', ns.name, 'configured', synced);
    expect((await gw.admin('GET', `/gw/apis/${idFor(ns.name, 'configured')}`)).json()).toMatchObject({ org_id: 'secret-org' });
  });
});
