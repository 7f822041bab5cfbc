// Admission refuses a duplicate listen path where it can know (issue 24, item 4), on the real control plane: the real
// operator process serves its webhooks (--webhook-port) and checks an ApiDefinition's listen path against its own
// informer cache; `kubectl apply` of a second API on the same context, domain and listen path fails naming the
// first, and nothing is stored. This file's validating configuration selects only its own namespace.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueServingCertificate } from '../../../src/kube/certs.ts';
import { webhookConfigurations } from '../../../src/operator/webhooks/configurations.ts';
import { freePort } from '../../../src/up/ports.ts';
import { writeCertDir } from '../../support/certs.ts';
import { installCrds } from '../../support/crds.ts';
import { startGateway } from '../../support/gateway.ts';
import { kubectl, useNamespace } from '../../support/kubectl.ts';
import { startOperator } from '../../support/operator.ts';
import { get, manifest, synced, waitFor } from '../../support/resources.ts';
import { waitUntil } from '../../support/wait.ts';

const api = (name: string, listenPath: string) =>
  manifest('ApiDefinition', name, { name, use_keyless: true, active: true, proxy: { listen_path: listenPath, target_url: 'http://127.0.0.1:9' } });

describe('listen path admission', () => {
  const ns = useNamespace('lpadm');
  let dir: string;
  let configName: string;
  beforeAll(installCrds);
  afterEach(async () => {
    await kubectl(['delete', 'validatingwebhookconfiguration,mutatingwebhookconfiguration', configName, '--ignore-not-found'], { allowFailure: true });
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second ApiDefinition on the same listen path, naming the first', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-lpadm-certs-'));
    const ca = createCertificateAuthority({ commonName: 'gw listen path admission test CA' });
    writeCertDir(dir, issueServingCertificate(ca, { commonName: 'gw-webhook', ipAddresses: ['127.0.0.1'] }));
    const port = await freePort();
    const gw = await startGateway();
    await startOperator({ gateway: gw, namespace: ns.name, args: ['--webhook-port', String(port), '--webhook-cert-dir', dir] });
    configName = `gw-test-${ns.name}`;
    const { mutating, validating } = webhookConfigurations({
      name: configName,
      endpoint: { url: `https://127.0.0.1:${port}` },
      caPem: ca.certPem,
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns.name } },
      timeoutSeconds: 5,
    });
    await kubectl(['apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [mutating, validating] }) });

    const applyApi = (name: string, listenPath: string, ...flags: string[]) =>
      kubectl(['apply', '-n', ns.name, ...flags, '-f', '-'], { input: JSON.stringify(api(name, listenPath)), allowFailure: true });
    // The configuration reaches the apiserver's webhook clients after a moment: the mutating webhook defaulting a
    // dry run says it is in force.
    await waitUntil(
      'the webhooks to be in force',
      async () => {
        const result = await applyApi('probe', '/probe', '--dry-run=server', '-o', 'json');
        return result.code === 0 && (JSON.parse(result.stdout) as { spec: Record<string, unknown> }).spec.version_data !== undefined;
      },
      { intervalMs: 200 },
    );

    expect((await applyApi('first', '/shared')).code).toBe(0);
    await waitFor('apidefinition', ns.name, 'first', synced); // in the operator's cache
    const refused = await applyApi('second', '/shared/');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      `The ApiDefinition "second" is invalid: spec.proxy.listen_path: Duplicate value: "/shared/": listen path /shared is already used by ApiDefinition ${ns.name}/first on the same gateway`,
    );
    expect(await get('apidefinition', ns.name, 'second')).toBeUndefined();
    expect((await applyApi('third', '/shared/more')).code).toBe(0);
  });
});
