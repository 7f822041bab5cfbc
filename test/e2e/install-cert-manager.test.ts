// The chart's cert-manager path for real: the default `helm install` on a cluster where cert-manager runs. The test
// cert-manager (test/certmanager: cert-manager's own controller loops and CA injector, from its library module)
// runs against a control plane of this test's own, because cert-manager's CRDs change what the chart detects and the
// shared control plane must stay bare for the other suites. Then: the NOTES name cert-manager, cert-manager issues
// the webhook certificate into the Secret the operator mounts, its injector puts the CA into both webhook
// configurations, and the apiserver rejects the invalid sample through our webhook Service.
// The test cert-manager comes from scripts/build-certmanager.sh: cached after its first build (several minutes of CPU,
// which .ci/run does before the suites), found at once afterwards; never skipped.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { stringify } from 'yaml';
import { startControlPlane, type ControlPlane } from '../../src/up/controlplane.ts';
import { REPO_ROOT } from '../../src/up/paths.ts';
import { freePorts } from '../../src/up/ports.ts';
import { CHART_DIR, RELEASE, RELEASE_NAMESPACE } from '../support/chart.ts';
import { runDeployedOperator, type DeployedOperator } from '../support/deployed-operator.ts';
import { SECRET, startGateway, type RunningGateway } from '../support/gateway.ts';
import { kubectl, runTool } from '../support/kubectl.ts';
import { waitUntil } from '../support/wait.ts';

const SAMPLES_NS = 'gw-e2e-cert-manager';
const execFileAsync = promisify(execFile);

describe('helm install on a cluster with cert-manager', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-e2e-cert-manager-'));
  const children: { name: string; child: ChildProcess; output: string[] }[] = [];
  let plane: ControlPlane;
  let cluster: { kubeconfig: string };
  let gw: RunningGateway;
  let operator: DeployedOperator | undefined;
  let certManager: string;

  beforeAll(async () => {
    // Its directory (certmanager binary, crds/): the script's last stdout line; it builds only when not cached.
    const built = await execFileAsync(join(REPO_ROOT, 'scripts', 'build-certmanager.sh'), { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    certManager = built.stdout.trim().split('\n').pop()!;
    plane = await startControlPlane({ dir: join(dir, 'plane'), binDir: inject('binDir'), apiserverArgs: ['--enable-aggregator-routing=true'] });
    cluster = { kubeconfig: plane.kubeconfig };
    await kubectl(['apply', '--server-side', '-f', join(certManager, 'crds')], cluster);
    await kubectl(['create', 'namespace', 'cert-manager'], cluster);
    for (const name of ['controller', 'cainjector']) {
      const child = spawn(join(certManager, 'certmanager'), [name, '--kubeconfig', plane.kubeconfig], { stdio: ['ignore', 'pipe', 'pipe'] });
      const output: string[] = [];
      child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      children.push({ name, child, output });
    }
    gw = await startGateway();
  });

  afterAll(async () => {
    await operator?.stop('SIGKILL');
    await Promise.all(
      children.map(
        ({ child }) =>
          new Promise((resolveExit) => {
            if (child.exitCode !== null) return resolveExit(undefined);
            child.once('exit', resolveExit);
            child.kill('SIGTERM');
          }),
      ),
    );
    await plane?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The Secret's data once cert-manager has written a certificate and its CA there. */
  async function issuedSecret(): Promise<Record<string, string> | undefined> {
    const { stdout } = await kubectl(
      ['get', 'secret', 'webhook-server-cert', '-n', RELEASE_NAMESPACE, '-o', 'jsonpath={.data}', '--ignore-not-found'],
      cluster,
    );
    const data = JSON.parse(stdout || '{}') as Record<string, string>;
    return data['ca.crt'] && data['tls.crt'] && data['tls.key'] ? data : undefined;
  }

  async function caBundles(): Promise<string[]> {
    const bundles: string[] = [];
    for (const kind of ['mutating', 'validating']) {
      const { stdout } = await kubectl(
        ['get', `${kind}webhookconfiguration`, `gw-operator-${kind}-webhook-configuration`, '-o', 'jsonpath={.webhooks[*].clientConfig.caBundle}'],
        cluster,
      );
      bundles.push(...stdout.split(' '));
    }
    return bundles;
  }

  it('cert-manager issues the webhook certificate, its injector sets the CA, and the webhook rejects the invalid sample', async () => {
    const [health, metrics, secureMetrics, webhook] = (await freePorts(4)) as [number, number, number, number];
    const values = {
      healthProbePort: health,
      metricsPort: metrics,
      rbac: { port: secureMetrics },
      global: { license: { operator: 'e2e-license-key' } },
      webhooks: { port: webhook, namespaceSelector: { matchLabels: { 'gw-e2e': 'true' } }, tls: { certificatesMountPath: join(dir, 'serving-certs') } },
    };
    writeFileSync(join(dir, 'values.yaml'), stringify(values));
    const install = await runTool(
      'helm',
      ['install', RELEASE, CHART_DIR, '-n', RELEASE_NAMESPACE, '--create-namespace', '-f', join(dir, 'values.yaml')],
      cluster,
    );
    expect(install.stdout).toContain('certificate by cert-manager (found cert-manager.io/v1)');
    const logs = () => children.map(({ name, output }) => `${name}: ${output.join('').slice(-2000)}`).join('\n');
    const secret = await waitUntil(() => `cert-manager to issue the webhook certificate\n${logs()}`, issuedSecret, { timeoutMs: 120_000, intervalMs: 500 });
    await waitUntil(
      () => `the CA injector to set every caBundle\n${logs()}`,
      async () => (await caBundles()).every((bundle) => bundle === secret['ca.crt']),
      { timeoutMs: 120_000, intervalMs: 500 },
    );
    const certificate = (
      await kubectl(
        ['get', 'certificate', 'gw-operator-serving-cert', '-n', RELEASE_NAMESPACE, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'],
        cluster,
      )
    ).stdout;
    expect(certificate).toBe('True');

    await kubectl(['create', 'namespace', SAMPLES_NS], cluster);
    await kubectl(['label', 'namespace', SAMPLES_NS, 'gw-e2e=true'], cluster);
    await kubectl(
      [
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
      ],
      cluster,
    );
    operator = await runDeployedOperator(RELEASE, RELEASE_NAMESPACE, cluster);
    const invalid = await kubectl(['apply', '-n', SAMPLES_NS, '-f', join(REPO_ROOT, 'config', 'samples', 'invalid', 'httpbin_invalid.yaml')], {
      ...cluster,
      allowFailure: true,
    });
    expect(invalid.code).not.toBe(0);
    expect(invalid.stderr).toContain('spec.use_keyless: Forbidden: a keyless API cannot also use standard auth');
  });
});
