// `gw operator`: runs the operator until SIGTERM/SIGINT, then lets reconciles in flight finish and exits (0); exits
// 1 when it loses the leader Lease (it is restarted clean, as controller-runtime managers are), 2 on bad
// configuration. Flags are the deployment's (charts/gw-operator renders them); configuration is GW_* environment
// variables, or the secret gw-operator-conf (see config.ts); a missing or invalid value stops it at start with one
// line per key.
import { tracingConfigFromEnv } from '../../tracing/config.ts';
import { Tracer } from '../../tracing/tracer.ts';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { reconcileLogMixin } from '../../kube/reconcile-id.ts';
import { stopRequested } from '../../config/stop-request.ts';
import { selfSignedServingCertificate } from '../../kube/certs.ts';
import { KubeClient } from '../../kube/client.ts';
import { isNotFound } from '../../kube/errors.ts';
import { LeaderElector } from '../../kube/leader.ts';
import { RequestAuthorizer } from '../../kube/request-authorizer.ts';
import { CoreResources } from '../../kube/resource.ts';
import { CONFIG_KEYS, OperatorConfigError, parseOperatorConfig, type OperatorConfig } from './config.ts';
import { Operator } from './operator.ts';
import { parseBindAddress, startProbes, type SecureMetricsOptions } from './probes.ts';
import type { SecretObject } from '../cluster/resources.ts';
import { startWebhookServer } from '../webhooks/server.ts';

export const usage = `usage: gw operator [flags]

Runs the operator: keeps ApiDefinitions, GwOasApiDefinitions, GwStreamsApiDefinitions, SecurityPolicies and
OperatorContexts in sync with the gateway (GW_MODE=ce) or the dashboard (GW_MODE=pro) named by GW_URL.

  --kubeconfig FILE                      cluster to watch (default: $KUBECONFIG, ~/.kube/config, in-cluster)
  --health-probe-bind-address ADDR       /healthz and /readyz (default :8081)
  --metrics-bind-address ADDR            plain-HTTP Prometheus /metrics (default :8080; 0 turns it off)
  --secure-metrics-bind-address ADDR     HTTPS /metrics for callers whose token may get /metrics (TokenReview +
                                         SubjectAccessReview); default off; the chart serves it on rbac.port
  --metrics-cert-dir DIR                 tls.crt and tls.key of the secure metrics endpoint (default: a
                                         self-signed certificate made at start)
  --leader-elect                         run controllers only while holding a Lease, so replicas can be > 1
  --leader-election-id NAME              the Lease's name (default gw-operator.gw.io)
  --leader-election-namespace NS         the Lease's namespace (default $POD_NAMESPACE, else gw-operator-system)
  --leader-elect-lease-duration D        how long a standby waits after the last renewal (default 15s)
  --leader-elect-renew-deadline D        how long the leader keeps trying to renew before giving up (default 10s)
  --leader-elect-retry-period D          time between attempts to acquire or renew (default 2s)
  --webhook-port PORT                    admission webhooks over HTTPS (default 0: off; the chart sets 9443)
  --webhook-cert-dir DIR                 tls.crt and tls.key of the webhook server, reloaded when they change
                                         (default /tmp/k8s-webhook-server/serving-certs)

Configuration (environment, or the secret gw-operator-conf): GW_OPERATOR_LICENSEKEY, GW_MODE, GW_URL, GW_AUTH,
GW_ORG (required); GW_TLS_INSECURE_SKIP_VERIFY, WATCH_NAMESPACE, WATCH_INGRESS_CLASS, GW_HTTPS_INGRESS_PORT,
GW_HTTP_INGRESS_PORT, GW_INGRESS_PUBLISH_ADDRESS (Ingress status address); tuning GW_DRIFT_PERIOD (60 s),
GW_MAX_CONCURRENT_RECONCILES (16), GW_KUBE_CLIENT_QPS (300), GW_KUBE_CLIENT_BURST (600), GW_RELOAD_DEBOUNCE_MS (200), GW_RECONCILE_TIMEOUT (60 s).
`;

const flags = {
  kubeconfig: { type: 'string' },
  'metrics-bind-address': { type: 'string', default: ':8080' },
  'secure-metrics-bind-address': { type: 'string', default: '' },
  'metrics-cert-dir': { type: 'string', default: '' },
  'health-probe-bind-address': { type: 'string', default: ':8081' },
  'leader-elect': { type: 'boolean', default: false },
  'leader-election-id': { type: 'string', default: 'gw-operator.gw.io' },
  'leader-election-namespace': { type: 'string', default: '' },
  'leader-elect-lease-duration': { type: 'string', default: '15s' },
  'leader-elect-renew-deadline': { type: 'string', default: '10s' },
  'leader-elect-retry-period': { type: 'string', default: '2s' },
  'webhook-port': { type: 'string', default: '0' },
  'webhook-cert-dir': { type: 'string', default: '/tmp/k8s-webhook-server/serving-certs' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function operator(argv: string[]): Promise<number> {
  let values: ReturnType<typeof parseArgs<{ args: string[]; options: typeof flags }>>['values'];
  try {
    ({ values } = parseArgs({ args: argv, options: flags }));
  } catch (error) {
    process.stderr.write(`gw operator: ${(error as Error).message}\n${usage}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  const log = pino({ level: process.env.GW_LOG_LEVEL ?? 'info', mixin: reconcileLogMixin }); // reconcileID on a reconcile's lines
  const kubeconfig = values.kubeconfig ? { kubeconfig: values.kubeconfig } : {};
  let config: OperatorConfig;
  let kube: KubeClient;
  let addresses: ReturnType<typeof bindAddresses>;
  try {
    addresses = bindAddresses(values);
    kube = KubeClient.fromKubeconfig(kubeconfig);
    config = parseOperatorConfig(process.env, await secretFallback(kube));
  } catch (error) {
    if (error instanceof OperatorConfigError || error instanceof FlagError) {
      process.stderr.write(`gw operator: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  kube = KubeClient.fromKubeconfig({ ...kubeconfig, qps: config.kubeQps, burst: config.kubeBurst });
  const namespace = values['leader-election-namespace'] || process.env.POD_NAMESPACE || 'gw-operator-system';
  const leaderElection = values['leader-elect']
    ? new LeaderElector(kube, { namespace, name: values['leader-election-id'], identity: `${hostname()}_${randomUUID()}`, log, ...addresses.leaderTimings })
    : undefined;
  // OpenTelemetry: on when OTEL_EXPORTER_OTLP_ENDPOINT is set (the SDKs' variables, tracing/config.ts).
  const tracing = tracingConfigFromEnv(process.env, 'gw-operator');
  const tracer = tracing.enabled
    ? new Tracer(tracing, { onExportError: (error) => log.debug({ err: error.message }, 'OpenTelemetry export failed; its spans are dropped') })
    : undefined;
  const running = new Operator(kube, config, log, { ...(leaderElection ? { leaderElection } : {}), ...(tracer ? { tracer } : {}) });
  if (!leaderElection) running.metrics.leader.set(0);

  const probes = await startProbes({
    registry: running.metrics.registry,
    ready: () => running.ready,
    health: addresses.health,
    ...(addresses.metrics ? { metrics: addresses.metrics } : {}),
    ...(addresses.secureMetrics ? { secureMetrics: secureMetrics(addresses.secureMetrics, values['metrics-cert-dir'], kube) } : {}),
  });
  const webhooks = addresses.webhookPort
    ? await startWebhookServer({
        host: '0.0.0.0',
        port: addresses.webhookPort,
        certDir: values['webhook-cert-dir'],
        log,
        registry: running.metrics.registry,
        cluster: { apiDefinitions: () => running.apiDefinitions.list() },
      })
    : undefined;
  log.info(
    {
      gateway: config.url,
      namespaces: config.watchNamespaces.length ? config.watchNamespaces : 'all',
      metricsPort: probes.metricsPort || undefined,
      secureMetricsPort: probes.secureMetricsPort || undefined,
      healthPort: probes.healthPort,
      webhookPort: webhooks?.port,
      leaderElection: leaderElection ? `${namespace}/${values['leader-election-id']}` : 'off',
    },
    'operator starting',
  );
  const stop = new AbortController();
  void stopRequested().then((reason) => {
    log.info({ reason }, 'shutting down: letting reconciles in flight finish');
    stop.abort();
  });
  await running.run(stop.signal);
  await Promise.all([probes.close(), webhooks?.close(), tracer?.shutdown(tracing.connection_timeout * 1000)]);
  if (running.manager.lostLeadership) {
    log.error('exiting: leadership lost (another replica leads now)');
    return 1;
  }
  return 0;
}

class FlagError extends Error {}

interface AddressFlags {
  'metrics-bind-address': string;
  'secure-metrics-bind-address': string;
  'health-probe-bind-address': string;
  'webhook-port': string;
  'leader-elect-lease-duration': string;
  'leader-elect-renew-deadline': string;
  'leader-elect-retry-period': string;
}

/** The listening addresses and leader-election timings the flags ask for; FlagError names a bad flag. */
function bindAddresses(values: AddressFlags) {
  const optional = (value: string, flag: string) => (value === '' || value === '0' ? undefined : parse(value, flag));
  const parse = (value: string, flag: string) => {
    try {
      return parseBindAddress(value, flag);
    } catch (error) {
      throw new FlagError((error as Error).message);
    }
  };
  const webhookPort = Number(values['webhook-port']);
  if (!Number.isInteger(webhookPort) || webhookPort < 0 || webhookPort > 65535)
    throw new FlagError(`--webhook-port must be a port number (0 turns webhooks off), got ${values['webhook-port']}`);
  const leaderTimings = {
    leaseDurationMs: durationMs(values['leader-elect-lease-duration'], '--leader-elect-lease-duration'),
    renewDeadlineMs: durationMs(values['leader-elect-renew-deadline'], '--leader-elect-renew-deadline'),
    retryPeriodMs: durationMs(values['leader-elect-retry-period'], '--leader-elect-retry-period'),
  };
  if (!(leaderTimings.leaseDurationMs > leaderTimings.renewDeadlineMs && leaderTimings.renewDeadlineMs > leaderTimings.retryPeriodMs)) {
    throw new FlagError('leader election needs --leader-elect-lease-duration > --leader-elect-renew-deadline > --leader-elect-retry-period');
  }
  return {
    leaderTimings,
    health: parse(values['health-probe-bind-address'], '--health-probe-bind-address'),
    metrics: optional(values['metrics-bind-address'], '--metrics-bind-address'),
    secureMetrics: optional(values['secure-metrics-bind-address'], '--secure-metrics-bind-address'),
    webhookPort,
  };
}

/** "15s", "500ms", "1m" or plain seconds. */
function durationMs(value: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(value);
  if (!match) throw new FlagError(`${flag} must be a duration such as 15s or 500ms, got ${value}`);
  const unit = match[2] === 'ms' ? 1 : match[2] === 'm' ? 60_000 : 1000;
  return Number(match[1]) * unit;
}

function secureMetrics(at: { host: string; port: number }, certDir: string, kube: KubeClient): SecureMetricsOptions {
  const tls = certDir
    ? { cert: readFileSync(join(certDir, 'tls.crt'), 'utf8'), key: readFileSync(join(certDir, 'tls.key'), 'utf8') }
    : (({ certPem, keyPem }) => ({ cert: certPem, key: keyPem }))(
        selfSignedServingCertificate({ commonName: 'gw-operator-metrics', dnsNames: [hostname(), 'localhost'], ipAddresses: ['127.0.0.1'] }),
      );
  return { ...at, authorizer: new RequestAuthorizer(kube), tls };
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
