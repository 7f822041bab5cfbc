// The workloads that run beside the operator's chart on a real node (the node e2e and `gw up --with-node`): an echo
// upstream and the gateway, both pods of the product image behind Services (the gateway's NodePort is how requests
// reach it through kube-proxy on the node address). The gateway pod carries a second echo on 127.0.0.1:18080, the
// address config/samples/httpbin.yaml targets, so the sample works unchanged. Manifests only; nothing is applied here.

export const WORKLOAD_NAMESPACE = 'gw-node-e2e';
export const GATEWAY_SECRET = 'node-e2e-secret';
export const GATEWAY_PORT = 8080;
const IMAGE = { image: 'gw:v1.0.0', imagePullPolicy: 'Never' };

/** A one-line HTTP server answering every request with its URL, Host header and the server's name, as JSON. */
const ECHO_SOURCE =
  "require('http').createServer((q,s)=>{s.setHeader('content-type','application/json');" +
  's.end(JSON.stringify({url:q.url,host:q.headers.host,server:process.env.ECHO_NAME}))}).listen(Number(process.env.PORT),process.env.HOST)';

const RESTRICTED = {
  runAsNonRoot: true,
  readOnlyRootFilesystem: true,
  allowPrivilegeEscalation: false,
  capabilities: { drop: ['ALL'] },
};

function echoContainer(name: string, host: string, port: number): Record<string, unknown> {
  return {
    name,
    ...IMAGE,
    command: ['node', '-e', ECHO_SOURCE],
    env: [
      { name: 'ECHO_NAME', value: name },
      { name: 'HOST', value: host },
      { name: 'PORT', value: String(port) },
    ],
    securityContext: RESTRICTED,
    // The kubelet probes the pod's address: only an echo listening there can be probed.
    ...(host === '127.0.0.1' ? {} : { readinessProbe: { tcpSocket: { port }, periodSeconds: 1 } }),
  };
}

function deployment(namespace: string, name: string, containers: unknown[], volumes: unknown[] = []): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers, volumes, automountServiceAccountToken: false } },
    },
  };
}

function service(namespace: string, name: string, port: number, type: 'ClusterIP' | 'NodePort' = 'ClusterIP'): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace },
    spec: { type, selector: { app: name }, ports: [{ name: 'http', port, targetPort: port }] },
  };
}

export function echoWorkload(): Record<string, unknown>[] {
  return [deployment(WORKLOAD_NAMESPACE, 'echo', [echoContainer('echo', '0.0.0.0', 8080)]), service(WORKLOAD_NAMESPACE, 'echo', 8080)];
}

/** The gateway: `gw gateway --config` from a ConfigMap; upstreamHosts maps `<service>.<namespace>.svc` names to Service IPs.
 * namespace (default WORKLOAD_NAMESPACE) and secret (its management secret, default GATEWAY_SECRET) are `gw up --with-node`'s own. */
export function gatewayWorkload(
  upstreamHosts: Record<string, string>,
  { namespace = WORKLOAD_NAMESPACE, secret = GATEWAY_SECRET } = {},
): Record<string, unknown>[] {
  const config = {
    listen_port: GATEWAY_PORT,
    secret,
    log_level: 'info',
    storage: { path: '/data/store' },
    app_path: '/data/apps',
    policies: { policy_path: '/data/policies.json' },
    upstream_hosts: upstreamHosts,
  };
  const gateway = {
    name: 'gateway',
    ...IMAGE,
    args: ['gateway', '--config', '/etc/gw/gw.json'],
    // One worker thread per core of the container's CPU limit (the downward API rounds it up; no limit: the node's
    // allocatable cores), rather than the cores the node has.
    env: [{ name: 'GW_GATEWAY_WORKERS', valueFrom: { resourceFieldRef: { containerName: 'gateway', resource: 'limits.cpu', divisor: '1' } } }],
    ports: [{ name: 'http', containerPort: GATEWAY_PORT }],
    readinessProbe: { httpGet: { path: '/ready', port: GATEWAY_PORT }, periodSeconds: 1 },
    securityContext: RESTRICTED,
    volumeMounts: [
      { name: 'config', mountPath: '/etc/gw', readOnly: true },
      { name: 'data', mountPath: '/data' },
      { name: 'tmp', mountPath: '/tmp' },
    ],
  };
  return [
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'gateway', namespace }, data: { 'gw.json': JSON.stringify(config) } },
    deployment(
      namespace,
      'gateway',
      [gateway, echoContainer('sample-upstream', '127.0.0.1', 18080)],
      [
        { name: 'config', configMap: { name: 'gateway' } },
        { name: 'data', emptyDir: {} },
        { name: 'tmp', emptyDir: {} },
      ],
    ),
    service(namespace, 'gateway', GATEWAY_PORT, 'NodePort'),
  ];
}
