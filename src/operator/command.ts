// `gw operator`: runs the operator until SIGTERM/SIGINT, then lets reconciles in flight finish and exits.
//   gw operator [--kubeconfig FILE] [--metrics-bind-address [HOST]:PORT] [--health-probe-bind-address [HOST]:PORT]
// Configuration: GW_* environment variables, or the secret gw-operator-conf (see config.ts); a missing or invalid
// value stops it at start with one line per key.
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { KubeClient } from '../kube/client.ts';
import { isNotFound } from '../kube/errors.ts';
import { CoreResources } from '../kube/resource.ts';
import { CONFIG_KEYS, OperatorConfigError, parseOperatorConfig, type OperatorConfig } from './config.ts';
import { Operator } from './operator.ts';
import { parseBindAddress, startProbes } from './probes.ts';
import type { SecretObject } from './resources.ts';

export const usage = `usage: gw operator [--kubeconfig FILE] [--metrics-bind-address [HOST]:PORT] [--health-probe-bind-address [HOST]:PORT]

Runs the operator: keeps ApiDefinitions, GwOasApiDefinitions, SecurityPolicies and OperatorContexts in sync with
the gateway (GW_MODE=ce) named by GW_URL.

  --kubeconfig FILE                   cluster to watch (default: $KUBECONFIG, ~/.kube/config, in-cluster)
  --metrics-bind-address ADDR         Prometheus metrics (default :8080)
  --health-probe-bind-address ADDR    /healthz and /readyz (default :8081)

Configuration (environment, or the secret gw-operator-conf): GW_OPERATOR_LICENSEKEY, GW_MODE, GW_URL, GW_AUTH,
GW_ORG (required); GW_TLS_INSECURE_SKIP_VERIFY, WATCH_NAMESPACE, WATCH_INGRESS_CLASS, GW_HTTPS_INGRESS_PORT,
GW_HTTP_INGRESS_PORT; tuning GW_DRIFT_PERIOD (60 s), GW_MAX_CONCURRENT_RECONCILES (4), GW_KUBE_CLIENT_QPS (300),
GW_KUBE_CLIENT_BURST (600), GW_RELOAD_DEBOUNCE_MS (200), GW_RECONCILE_TIMEOUT (60 s).
`;

export async function operator(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      kubeconfig: { type: 'string' },
      'metrics-bind-address': { type: 'string', default: ':8080' },
      'health-probe-bind-address': { type: 'string', default: ':8081' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  const log = pino({ level: process.env.GW_LOG_LEVEL ?? 'info' });
  let config: OperatorConfig;
  let kube: KubeClient;
  try {
    kube = KubeClient.fromKubeconfig({ ...(values.kubeconfig ? { kubeconfig: values.kubeconfig } : {}) });
    config = parseOperatorConfig(process.env, await secretFallback(kube));
  } catch (error) {
    if (error instanceof OperatorConfigError) {
      process.stderr.write(`gw operator: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (config.mode === 'pro') {
    process.stderr.write('gw operator: GW_MODE=pro (dashboard) is not supported by this operator build yet; use GW_MODE=ce\n');
    return 2;
  }
  kube = KubeClient.fromKubeconfig({ ...(values.kubeconfig ? { kubeconfig: values.kubeconfig } : {}), qps: config.kubeQps, burst: config.kubeBurst });
  const running = new Operator(kube, config, log);
  const probes = await startProbes(
    running.metrics.registry,
    () => running.ready,
    parseBindAddress(values['metrics-bind-address'], '--metrics-bind-address'),
    parseBindAddress(values['health-probe-bind-address'], '--health-probe-bind-address'),
  );
  log.info({ gateway: config.url, namespaces: config.watchNamespaces.length ? config.watchNamespaces : 'all', metricsPort: probes.metricsPort, healthPort: probes.healthPort }, 'operator starting');
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log.info('shutting down: letting reconciles in flight finish');
      stop.abort();
    });
  }
  await running.run(stop.signal);
  await probes.close();
  return 0;
}

/** The secret gw-operator-conf, decoded, when the environment lacks any required key (empty when absent). */
async function secretFallback(kube: KubeClient): Promise<Record<string, string>> {
  const required = CONFIG_KEYS.slice(0, 5);
  if (required.every((key) => process.env[key] !== undefined)) return {};
  const name = process.env.GW_OPERATOR_SECRET_NAME ?? 'gw-operator-conf';
  const namespace = process.env.POD_NAMESPACE ?? 'gw-operator-system';
  try {
    const secret = await kube.get<SecretObject>(CoreResources.secret, namespace, name);
    return Object.fromEntries(Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
  } catch (error) {
    // Absent or unreadable: the environment alone decides, and the missing keys are reported one per line.
    if (!isNotFound(error)) process.stderr.write(`gw operator: secret ${namespace}/${name} not read: ${(error as Error).message}\n`);
    return {};
  }
}
