// The operator as users install and use it, on the real control plane with the real helm and kubectl:
//   helm install gw-operator charts/gw-operator -n gw-operator-system --create-namespace
//     with the chart's default webhook TLS: this cluster has no cert-manager, so the chart generates the certificate
//   kubectl create secret generic gw-operator-conf ...
//   the operator runs with the chart's rendered args, env and ServiceAccount (TokenRequest, never admin)
//   kubectl apply -f config/samples  ->  kubectl get shows SYNCSTATUS Successful and Ready for the current
//   generation; requests through the gateway behave as the samples promise; the apiserver calls our admission
//   webhooks through the webhook Service, trusting the chart's CA, and kubectl apply of the invalid sample fails
//   with our message; HTTPS metrics only for an authorised token
//   the NOTES' CRD upgrade command applies on the CRDs helm created; helm upgrade keeps the generated certificate
//   and leaves the CRDs alone; helm uninstall removes the release and leaves CRDs and resources.
// The control plane has no nodes, so the Deployment's pod never runs: test/support/deployed-operator.ts runs its
// container here, as the kubelet would, and publishes it as the Services' endpoint. Values set here only keep the
// test apart from others sharing the machine and the control plane: free ports, a private certificate directory
// and the webhooks' namespaceSelector (this test's labelled namespace only, so the other suites are never admitted
// through them).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { REPO_ROOT } from '../../src/up/paths.ts';
import { freePorts } from '../../src/up/ports.ts';
import { CHART_DIR, RELEASE, RELEASE_NAMESPACE } from '../support/chart.ts';
import { runDeployedOperator, type DeployedOperator } from '../support/deployed-operator.ts';
import { http, SECRET, startGateway, type RunningGateway } from '../support/gateway.ts';
import { kubectl, runTool } from '../support/kubectl.ts';
import { get, ready, synced, waitFor, type Resource } from '../support/resources.ts';
import { copySamples, INVALID_SAMPLE } from '../support/samples.ts';
import { startUpstream, type Upstream } from '../support/upstream.ts';

const SAMPLES_NS = 'gw-e2e-samples';
const CRD_NAMES = ['apidefinitions.gw.gw.io', 'securitypolicies.gw.gw.io', 'gwoasapidefinitions.gw.gw.io'];

async function metrics(port: number, token?: string): Promise<{ status: number; text: string }> {
  const response = await request(`https://127.0.0.1:${port}/metrics`, {
    dispatcher: new Agent({ connect: { rejectUnauthorized: false } }), // the operator's self-signed metrics certificate
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: response.statusCode, text: await response.body.text() };
}

/** The webhook certificate Secret's data and the caBundle of every webhook of both configurations. */
async function webhookTls(): Promise<{ secret: Record<string, string>; caBundles: string[] }> {
  const secret = JSON.parse((await kubectl(['get', 'secret', 'webhook-server-cert', '-n', RELEASE_NAMESPACE, '-o', 'jsonpath={.data}'])).stdout) as Record<
    string,
    string
  >;
  const caBundles: string[] = [];
  for (const kind of ['mutatingwebhookconfiguration', 'validatingwebhookconfiguration']) {
    const { stdout } = await kubectl([
      'get',
      kind,
      `gw-operator-${kind.replace('webhookconfiguration', '')}-webhook-configuration`,
      '-o',
      'jsonpath={.webhooks[*].clientConfig.caBundle}',
    ]);
    caBundles.push(...stdout.split(' '));
  }
  return { secret, caBundles };
}

/** Ready=True, observed for the object's current generation (an older generation's verdict does not count). */
const readyNow = (resource: Resource | undefined): boolean =>
  ready(resource)?.status === 'True' && ready(resource)?.observedGeneration === resource?.metadata.generation;

/** Synced (SYNCSTATUS Successful) and Ready, both for the current generation: the state the operator reports now. */
const syncedNow = (resource: Resource | undefined): boolean =>
  synced(resource) && readyNow(resource) && resource?.status?.observedGeneration === resource?.metadata.generation;

async function crdVersions(): Promise<string[]> {
  return Promise.all(CRD_NAMES.map(async (name) => (await kubectl(['get', 'crd', name, '-o', 'jsonpath={.metadata.resourceVersion}'])).stdout));
}

describe('helm install, kubectl apply, kubectl get', () => {
  let upstream: Upstream;
  let gw: RunningGateway;
  let operator: DeployedOperator;
  let ports: { health: number; metrics: number; secureMetrics: number; webhook: number };
  const dir = mkdtempSync(join(tmpdir(), 'gw-e2e-install-'));

  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway();
    const [health, metricsPort, secureMetrics, webhook] = (await freePorts(4)) as [number, number, number, number];
    ports = { health, metrics: metricsPort, secureMetrics, webhook };
  });

  afterAll(async () => {
    await operator?.stop('SIGKILL');
    // Resources keep their finalizers once the operator is gone (that is the point of finalizers): clear them.
    for (const kind of ['apidefinitions', 'gwoasapidefinitions', 'securitypolicies', 'operatorcontexts']) {
      const { stdout } = await kubectl(['get', kind, '-n', SAMPLES_NS, '-o', 'name'], { allowFailure: true });
      for (const name of stdout.split('\n').filter(Boolean)) {
        await kubectl(['patch', name, '-n', SAMPLES_NS, '--type=merge', '-p', '{"metadata":{"finalizers":null}}'], { allowFailure: true });
      }
    }
    await runTool('helm', ['uninstall', RELEASE, '-n', RELEASE_NAMESPACE], { allowFailure: true });
    await kubectl(['delete', 'namespace', SAMPLES_NS, RELEASE_NAMESPACE, '--ignore-not-found', '--wait=false'], { allowFailure: true });
    rmSync(dir, { recursive: true, force: true });
  });

  it("installs with helm and its default webhook TLS on a cluster without cert-manager, and runs with the chart's configuration and ServiceAccount", async () => {
    const values = {
      healthProbePort: ports.health,
      metricsPort: ports.metrics,
      rbac: { port: ports.secureMetrics },
      global: { license: { operator: 'e2e-license-key' } },
      webhooks: {
        port: ports.webhook,
        namespaceSelector: { matchLabels: { 'gw-e2e': 'true' } },
        tls: { certificatesMountPath: join(dir, 'serving-certs') }, // where the "kubelet" projects the secret here
      },
    };
    writeFileSync(join(dir, 'values.yaml'), stringify(values));

    const install = await runTool('helm', ['install', RELEASE, CHART_DIR, '-n', RELEASE_NAMESPACE, '--create-namespace', '-f', join(dir, 'values.yaml')]);
    expect(install.stdout).toContain('STATUS: deployed');
    expect(install.stdout).toContain('gw-operator-conf'); // NOTES: the secret to create next
    expect(install.stdout).toContain('certificate generated by the chart (cert-manager.io/v1 not found on this cluster)');
    const tls = await webhookTls();
    expect(Object.keys(tls.secret).sort()).toEqual(['ca.crt', 'tls.crt', 'tls.key']);
    // Every webhook the operator serves (config/webhook lists them, as the chart renders them) carries the chart's CA.
    const webhooks = parseAllDocuments(readFileSync(join(REPO_ROOT, 'config', 'webhook', 'manifests.yaml'), 'utf8')).flatMap(
      (doc) => (doc.toJS() as { webhooks?: unknown[] } | null)?.webhooks ?? [],
    );
    expect(webhooks.length).toBeGreaterThan(0);
    expect(tls.caBundles).toEqual(Array(webhooks.length).fill(tls.secret['ca.crt']));
    for (const name of CRD_NAMES)
      expect((await kubectl(['get', 'crd', name, '-o', 'name'])).stdout.trim()).toBe(`customresourcedefinition.apiextensions.k8s.io/${name}`);

    await kubectl(['create', 'namespace', SAMPLES_NS]);
    await kubectl(['label', 'namespace', SAMPLES_NS, 'gw-e2e=true']);
    await kubectl([
      'create',
      'secret',
      'generic',
      'gw-operator-conf',
      '-n',
      RELEASE_NAMESPACE,
      '--from-literal=GW_MODE=ce',
      `--from-literal=GW_URL=${gw.controlUrl}`,
      `--from-literal=GW_AUTH=${SECRET}`,
      '--from-literal=GW_ORG=e2e',
      `--from-literal=WATCH_NAMESPACE=${SAMPLES_NS}`,
      '--from-literal=GW_RELOAD_DEBOUNCE_MS=50',
    ]);

    operator = await runDeployedOperator(RELEASE, RELEASE_NAMESPACE);
    expect(operator.serviceAccount).toBe('gw-operator-controller-manager');
    expect(operator.args).toContain('--leader-elect');
    expect(operator.env.GW_OPERATOR_LICENSEKEY).toBe('e2e-license-key'); // global.license.operator
    expect(operator.env.POD_NAMESPACE).toBe(RELEASE_NAMESPACE);
    // Leader election ran with the ServiceAccount: the Lease exists in the release namespace and names this process.
    await expect
      .poll(
        async () =>
          (await kubectl(['get', 'lease', 'gw-operator.gw.io', '-n', RELEASE_NAMESPACE, '-o', 'jsonpath={.spec.holderIdentity}'], { allowFailure: true }))
            .stdout,
        { timeout: 15_000 },
      )
      .toMatch(/_/);
  });

  it('has exactly the permissions it needs, nothing more', async () => {
    const can = async (...args: string[]): Promise<string> =>
      (
        await kubectl(['auth', 'can-i', ...args, `--as=system:serviceaccount:${RELEASE_NAMESPACE}:${operator.serviceAccount}`], { allowFailure: true })
      ).stdout.trim();
    expect(await can('watch', 'apidefinitions.gw.gw.io', '-A')).toBe('yes');
    expect(await can('patch', 'securitypolicies.gw.gw.io', '--subresource=status', '-n', SAMPLES_NS)).toBe('yes');
    expect(await can('get', 'secrets', '-n', SAMPLES_NS)).toBe('yes');
    expect(await can('update', 'leases.coordination.k8s.io', '-n', RELEASE_NAMESPACE)).toBe('yes');
    // Secrets: read, listed and watched (certificate Secrets reach the gateway when they rotate), never written.
    expect(await can('watch', 'secrets', '-n', SAMPLES_NS)).toBe('yes');
    expect(await can('list', 'secrets', '-n', SAMPLES_NS)).toBe('yes');
    expect(await can('update', 'secrets', '-n', SAMPLES_NS)).toBe('no');
    expect(await can('create', 'secrets', '-n', SAMPLES_NS)).toBe('no');
    // Ingress routes are ApiDefinitions the operator creates and deletes; policies it never creates.
    expect(await can('create', 'apidefinitions.gw.gw.io', '-n', SAMPLES_NS)).toBe('yes');
    expect(await can('list', 'ingresses.networking.k8s.io', '-A')).toBe('yes');
    expect(await can('patch', 'ingresses.networking.k8s.io', '--subresource=status', '-n', SAMPLES_NS)).toBe('yes');
    expect(await can('get', 'services', '-n', SAMPLES_NS)).toBe('yes');
    expect(await can('create', 'securitypolicies.gw.gw.io', '-n', SAMPLES_NS)).toBe('no');
    expect(await can('patch', 'ingresses.networking.k8s.io', '-n', SAMPLES_NS)).toBe('no');
    expect(await can('update', 'services', '-n', SAMPLES_NS)).toBe('no');
    expect(await can('update', 'leases.coordination.k8s.io', '-n', SAMPLES_NS)).toBe('no');
    expect(await can('create', 'deployments.apps', '-n', RELEASE_NAMESPACE)).toBe('no');
  });

  it('kubectl apply -f config/samples: every sample synced, and the gateway does what they promise', async () => {
    const applied = await kubectl(['apply', '-n', SAMPLES_NS, '-f', copySamples(join(dir, 'samples'), upstream.url)]);
    expect(applied.stdout).toContain('apidefinition.gw.gw.io/httpbin created');
    for (const [kind, name] of [
      ['apidefinition', 'httpbin'],
      ['apidefinition', 'httpbin-protected'],
      ['securitypolicy', 'httpbin-protected-gold'],
      ['gwoasapidefinition', 'petstore'],
    ] as const) {
      await waitFor(kind, SAMPLES_NS, name, syncedNow);
    }
    const table = (await kubectl(['get', 'apidefinitions,gwoasapidefinitions', '-n', SAMPLES_NS])).stdout;
    expect(table).toMatch(/SYNCSTATUS/);
    for (const name of ['httpbin ', 'httpbin-protected ', 'petstore ']) expect(table.split('\n').find((line) => line.includes(name))).toContain('Successful');
    expect(ready(await waitFor('operatorcontext', SAMPLES_NS, 'staging', readyNow))).toMatchObject({ reason: 'Resolved' });

    const keyless = await gw.call('/httpbin/get?sample=1');
    expect(keyless.status).toBe(200);
    expect(keyless.json<{ url: string }>().url).toBe('/get?sample=1');
    expect((await gw.call('/petstore/get')).status).toBe(200);
    expect((await gw.call('/httpbin-protected/get')).status).toBe(401);
    const policy = await get('securitypolicy', SAMPLES_NS, 'httpbin-protected-gold');
    const polId = (policy?.status as { pol_id?: string } | undefined)?.pol_id;
    expect(polId).toBeTruthy();
    const key = (await gw.admin('POST', '/gw/keys/create', { apply_policies: [polId] })).json<{ key: string }>().key;
    const protectedCall = await gw.call('/httpbin-protected/get', { headers: { authorization: key } });
    expect(protectedCall.status).toBe(200);
    expect(protectedCall.headers['x-ratelimit-limit']).toBe('10000'); // the policy's quota
  });

  it('the apiserver calls our webhooks: the invalid sample is rejected naming the field, a missing auth config is defaulted', async () => {
    const invalid = await kubectl(['apply', '-n', SAMPLES_NS, '-f', INVALID_SAMPLE], {
      allowFailure: true,
    });
    expect(invalid.code).not.toBe(0);
    expect(invalid.stderr).toContain(
      'The ApiDefinition "httpbin-invalid" is invalid: spec.use_keyless: Forbidden: a keyless API cannot also use standard auth',
    );
    expect(await get('apidefinition', SAMPLES_NS, 'httpbin-invalid')).toBeUndefined();

    const defaulted = {
      apiVersion: 'gw.gw.io/v1alpha1',
      kind: 'ApiDefinition',
      metadata: { name: 'defaulted' },
      spec: { name: 'defaulted', use_standard_auth: true, active: true, proxy: { listen_path: '/defaulted/', target_url: upstream.url } },
    };
    await kubectl(['apply', '-n', SAMPLES_NS, '-f', '-'], { input: JSON.stringify(defaulted) });
    const stored = await get('apidefinition', SAMPLES_NS, 'defaulted');
    expect((stored?.spec as { auth_configs?: { authToken?: { auth_header_name?: string } } }).auth_configs?.authToken?.auth_header_name).toBe('Authorization');
    // Both answers came from our webhook server (the plain metrics port the chart binds to loopback).
    const counted = await http(`http://127.0.0.1:${ports.metrics}/metrics`);
    expect(counted.text).toMatch(/^gw_operator_webhook_requests_total\{webhook="validate-gw-gw-io-v1alpha1-apidefinition",allowed="false"\} 1$/m);
    expect(counted.text).toMatch(/^gw_operator_webhook_requests_total\{webhook="mutate-gw-gw-io-v1alpha1-apidefinition",allowed="true"\} [1-9]/m);
    expect(await operator.stop('SIGTERM')).toBe(0);
    operator = await runDeployedOperator(RELEASE, RELEASE_NAMESPACE); // restarts keep working (cert files, lease)
  });

  it('serves HTTPS metrics only to a token allowed to get /metrics', async () => {
    expect((await metrics(ports.secureMetrics)).status).toBe(401);
    expect((await metrics(ports.secureMetrics, 'not-a-token')).status).toBe(401);
    expect((await metrics(ports.secureMetrics, operator.token)).status).toBe(403); // the operator's own SA is not a metrics reader
    await kubectl(['create', 'serviceaccount', 'prometheus', '-n', RELEASE_NAMESPACE]);
    await kubectl([
      'create',
      'clusterrolebinding',
      'gw-e2e-prometheus',
      '--clusterrole=gw-operator-metrics-reader',
      `--serviceaccount=${RELEASE_NAMESPACE}:prometheus`,
    ]);
    try {
      const token = (await kubectl(['create', 'token', 'prometheus', '-n', RELEASE_NAMESPACE])).stdout.trim();
      const scraped = await metrics(ports.secureMetrics, token);
      expect(scraped.status).toBe(200);
      expect(scraped.text).toMatch(/^gw_operator_reconciles_total\{kind="ApiDefinition",outcome="success"\} \d+/m);
      expect(scraped.text).toMatch(/^gw_operator_leader 1$/m);
      expect(scraped.text).toContain('gw_operator_queue_wait_seconds_bucket');
      expect(scraped.text).toContain('gw_operator_gateway_request_duration_seconds_bucket');
      expect(scraped.text).toContain('gw_operator_webhook_requests_total');
    } finally {
      await kubectl(['delete', 'clusterrolebinding', 'gw-e2e-prometheus'], { allowFailure: true });
    }
  });

  it('helm upgrade changes the release, keeps the generated certificate and leaves the CRDs alone; helm uninstall removes the release only', async () => {
    // First what the release's NOTES tell users to run before an upgrade: it applies on CRDs helm created (without
    // --force-conflicts it stopped on "conflict with \"helm\" ... .spec.versions").
    const notes = (await runTool('helm', ['get', 'notes', RELEASE, '-n', RELEASE_NAMESPACE])).stdout;
    const crdUpgrade = notes
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line.startsWith('kubectl apply --server-side'));
    expect(crdUpgrade).toBeDefined();
    const args = crdUpgrade!
      .split(/\s+/)
      .slice(1)
      .map((arg) => (arg === 'charts/gw-operator/crds/' ? join(REPO_ROOT, arg) : arg));
    expect((await kubectl(args)).stdout).toContain('customresourcedefinition.apiextensions.k8s.io/apidefinitions.gw.gw.io serverside-applied');

    const before = await crdVersions();
    const tlsBefore = await webhookTls();
    const upgrade = await runTool('helm', ['upgrade', RELEASE, CHART_DIR, '-n', RELEASE_NAMESPACE, '--reuse-values', '--set', 'replicaCount=2']);
    expect(upgrade.stdout).toContain('REVISION: 2');
    expect(await webhookTls()).toEqual(tlsBefore); // the stored CA is looked up, not generated again
    expect((await kubectl(['get', 'deployment', 'gw-operator-controller-manager', '-n', RELEASE_NAMESPACE, '-o', 'jsonpath={.spec.replicas}'])).stdout).toBe(
      '2',
    );
    expect(await crdVersions()).toEqual(before);

    expect(await operator.stop('SIGTERM')).toBe(0);
    const uninstall = await runTool('helm', ['uninstall', RELEASE, '-n', RELEASE_NAMESPACE]);
    expect(uninstall.stdout).toContain('uninstalled');
    const releaseObjects: [string, string][] = [
      ['deployment', 'gw-operator-controller-manager'],
      ['serviceaccount', 'gw-operator-controller-manager'],
      ['clusterrole', 'gw-operator-manager-role'],
      ['validatingwebhookconfiguration', 'gw-operator-validating-webhook-configuration'],
      ['mutatingwebhookconfiguration', 'gw-operator-mutating-webhook-configuration'],
    ];
    for (const [kind, name] of releaseObjects) {
      expect((await kubectl(['get', kind, name, '-n', RELEASE_NAMESPACE, '--ignore-not-found', '-o', 'name'])).stdout.trim()).toBe('');
    }
    expect(await crdVersions()).toEqual(before);
    expect(synced(await get('apidefinition', SAMPLES_NS, 'httpbin'))).toBe(true); // custom resources stay
  });
});
