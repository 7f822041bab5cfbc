// The operator of an installed Helm release, run the way the kubelet would run its pod — except here, on loopback,
// because the test control plane has no nodes: the container's args exactly as rendered, its env resolved as the
// kubelet resolves it (value, fieldRef metadata.namespace, secretKeyRef, envFrom secretRef), its ServiceAccount's
// credentials from a TokenRequest (`kubectl create token`), and the webhook certificate Secret projected into the
// mount path the Deployment names, as the kubelet lays a Secret volume out. Never admin credentials: what the
// operator can do is what the chart's RBAC grants.
// Once it is ready, the release's Services that select the pod get an EndpointSlice naming this machine's address
// and the container's ports, as the EndpointSlice controller publishes a Ready pod: the apiserver (run with
// --enable-aggregator-routing, test/support/global-setup.ts) then reaches the webhook Service as in a cluster, with
// the certificate the chart configured. Stopping the operator withdraws the slices.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { writeCertDir } from './certs.ts';
import { find, parseManifests, type Container, type Deployment, type KubeManifest } from './chart.ts';
import { gwProcess } from './gw-process.ts';
import { kubectl, runTool } from './kubectl.ts';

/** Which cluster: the suite's (default) or the one of `kubeconfig`. */
export interface ClusterOption {
  kubeconfig?: string;
}

export interface DeployedOperator {
  args: string[];
  env: Record<string, string>;
  serviceAccount: string;
  token: string;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function secretData(namespace: string, name: string, cluster: ClusterOption): Promise<Record<string, string>> {
  const { stdout } = await kubectl(['get', 'secret', name, '-n', namespace, '-o', 'jsonpath={.data}'], cluster);
  return Object.fromEntries(
    Object.entries(JSON.parse(stdout || '{}') as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
  );
}

/** The container's environment as the kubelet builds it: envFrom first, then env (which wins). */
async function resolveEnv(container: Container, namespace: string, cluster: ClusterOption): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (source.secretRef) Object.assign(env, await secretData(namespace, source.secretRef.name, cluster));
  }
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) env[variable.name] = variable.value;
    else if (variable.valueFrom?.fieldRef?.fieldPath === 'metadata.namespace') env[variable.name] = namespace;
    else if (variable.valueFrom?.secretKeyRef) {
      const { name, key } = variable.valueFrom.secretKeyRef;
      const value = (await secretData(namespace, name, cluster))[key];
      if (value === undefined) throw new Error(`env ${variable.name}: secret ${namespace}/${name} has no key ${key}`);
      env[variable.name] = value;
    } else throw new Error(`env ${variable.name}: a source this helper does not resolve: ${JSON.stringify(variable.valueFrom)}`);
  }
  return env;
}

/** A kubeconfig for the cluster's apiserver that authenticates with `token` only. */
async function tokenKubeconfig(dir: string, token: string, target: ClusterOption): Promise<string> {
  const view = JSON.parse((await kubectl(['config', 'view', '--raw', '--minify', '-o', 'json'], target)).stdout) as {
    clusters: { cluster: { server: string; 'certificate-authority'?: string; 'certificate-authority-data'?: string } }[];
  };
  const cluster = view.clusters[0]!.cluster;
  const file = join(dir, 'kubeconfig');
  writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster }],
      users: [{ name: 'sa', user: { token } }],
      contexts: [{ name: 'sa', context: { cluster: 'c', user: 'sa' } }],
      'current-context': 'sa',
    }),
    { mode: 0o600 },
  );
  return file;
}

function bindPort(args: string[], flag: string): number | undefined {
  const value = args.find((arg) => arg.startsWith(`${flag}=`))?.slice(flag.length + 1);
  return value ? Number(value.slice(value.lastIndexOf(':') + 1)) : undefined;
}

/** The address a pod of this machine would have: its first non-loopback IPv4 (Endpoints refuse loopback). */
function podAddress(): string {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal);
  if (!address) throw new Error('no non-loopback IPv4 address on this machine: the apiserver cannot reach a Service endpoint');
  return address.address;
}

interface ServiceManifest extends KubeManifest {
  spec: { selector?: Record<string, string>; ports: { name: string; targetPort: string | number }[] };
}

/** An EndpointSlice per Service of the release selecting the pod, naming `address` and the container's ports. */
function endpointSlices(manifest: KubeManifest[], deployment: Deployment, container: Container, address: string): KubeManifest[] {
  const labels = deployment.spec.template.metadata.labels;
  const services = manifest
    .filter((o): o is ServiceManifest => o.kind === 'Service')
    .filter((service) => Object.entries(service.spec.selector ?? { none: '' }).every(([key, value]) => labels[key] === value));
  return services.map((service) => ({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: `${service.metadata.name}-deployed-operator`,
      // The EndpointSlice controller leaves slices managed by someone else alone.
      labels: { 'kubernetes.io/service-name': service.metadata.name, 'endpointslice.kubernetes.io/managed-by': 'gw-tests.deployed-operator' },
    },
    addressType: 'IPv4',
    endpoints: [{ addresses: [address], conditions: { ready: true } }],
    ports: service.spec.ports.map((port) => ({
      name: port.name,
      protocol: 'TCP',
      port: typeof port.targetPort === 'number' ? port.targetPort : container.ports?.find((p) => p.name === port.targetPort)?.containerPort,
    })),
  }));
}

/**
 * Starts the operator of release `release` in `namespace` as its Deployment describes it; resolves once /readyz is
 * 200. `cluster.kubeconfig`: another cluster than the suite's.
 */
export async function runDeployedOperator(release: string, namespace: string, cluster: ClusterOption = {}): Promise<DeployedOperator> {
  const manifest = parseManifests((await runTool('helm', ['get', 'manifest', release, '-n', namespace], cluster)).stdout);
  const deployment = find<Deployment>(manifest, 'Deployment');
  const pod = deployment.spec.template.spec;
  const container = pod.containers.find((c) => c.name === 'manager');
  if (!container) throw new Error('the Deployment has no container "manager"');
  const env = await resolveEnv(container, namespace, cluster);
  const serviceAccount = pod.serviceAccountName;
  const token = (await kubectl(['create', 'token', serviceAccount, '-n', namespace, '--duration=1h'], cluster)).stdout.trim();
  const dir = mkdtempSync(join(tmpdir(), 'gw-deployed-operator-'));
  dirs.push(dir);

  // Secret volumes, projected where the container mounts them.
  for (const mount of container.volumeMounts ?? []) {
    const volume = pod.volumes?.find((v) => v.name === mount.name) as { secret?: { secretName: string } } | undefined;
    if (!volume?.secret) continue;
    const data = await secretData(namespace, volume.secret.secretName, cluster);
    writeCertDir(mount.mountPath, { certPem: data['tls.crt'] ?? '', keyPem: data['tls.key'] ?? '' });
  }

  const args = container.args;
  const healthPort = bindPort(args, '--health-probe-bind-address');
  if (!healthPort) throw new Error(`no --health-probe-bind-address among ${args.join(' ')}`);
  const childEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GW_CACHE_DIR: process.env.GW_CACHE_DIR,
    ...env,
    KUBECONFIG: await tokenKubeconfig(dir, token, cluster),
  };
  for (const key of Object.keys(childEnv)) if (childEnv[key] === undefined) delete childEnv[key];
  const launched = gwProcess({ args, env: childEnv, readyUrl: `http://127.0.0.1:${healthPort}/readyz`, name: 'the deployed operator' });
  await launched.start();
  const slices = endpointSlices(manifest, deployment, container, podAddress());
  const sliceList = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: slices });
  await kubectl(['apply', '-n', namespace, '-f', '-'], { ...cluster, input: sliceList });
  const stop = async (signal?: NodeJS.Signals): Promise<number | null> => {
    await kubectl(['delete', '-n', namespace, '--ignore-not-found', '-f', '-'], { ...cluster, input: sliceList, allowFailure: true });
    return launched.stop(signal);
  };
  return { args, env, serviceAccount, token, output: launched.output, stop };
}
