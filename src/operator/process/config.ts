// The operator's configuration: gw\'s documented keys, from the environment (the Helm chart passes the secret
// gw-operator-conf with envFrom) or, for keys the environment lacks, from that secret read directly (name
// GW_OPERATOR_SECRET_NAME, default gw-operator-conf; namespace POD_NAMESPACE, default gw-operator-system).
// Required: GW_OPERATOR_LICENSEKEY, GW_MODE (ce|pro), GW_URL, GW_AUTH, GW_ORG. Optional: GW_TLS_INSECURE_SKIP_VERIFY
// (false), WATCH_NAMESPACE (comma list; empty = all), WATCH_INGRESS_CLASS (gw), GW_HTTPS_INGRESS_PORT (8443),
// GW_HTTP_INGRESS_PORT (8080), GW_INGRESS_PUBLISH_ADDRESS (empty). Tuning, documented with defaults below. Every problem is reported at once, one line
// per key, and the process does not start. Secret values are never printed.
import { z } from 'zod';
import { issueLines } from '../../domain/zod-issues.ts';
import { parsePublishAddresses } from '../ingress/publish-address.ts';

const bool = z.enum(['true', 'false', '1', '0', '']).transform((v) => v === 'true' || v === '1');
const port = z.coerce.number().int().min(1).max(65535);
const positive = z.coerce.number().positive();

export const OperatorConfigSchema = z.object({
  GW_OPERATOR_LICENSEKEY: z.string({ error: 'required' }).min(1, 'required').describe('Operator license key.'),
  GW_MODE: z.enum(['ce', 'pro'], { error: 'required: ce (open-source gateway) or pro (dashboard)' }).describe('ce: gateway API; pro: dashboard API.'),
  GW_URL: z.url({ error: 'required: an http(s) URL of the gateway (ce) or dashboard (pro)' }).describe('Management URL of the gateway or dashboard.'),
  GW_AUTH: z.string({ error: 'required' }).min(1, 'required').describe('Secret (ce) or API key (pro) of the operator user.'),
  GW_ORG: z.string({ error: 'required' }).min(1, 'required').describe('Organisation id of the operator user.'),
  GW_TLS_INSECURE_SKIP_VERIFY: bool.default(false).describe('Accept a self-signed certificate on an https GW_URL.'),
  WATCH_NAMESPACE: z.string().default('').describe('Namespaces to watch, comma-separated; empty: all.'),
  WATCH_INGRESS_CLASS: z
    .string()
    .default('gw')
    .describe(
      'Ingress class served: the annotation kubernetes.io/ingress.class; Ingresses naming an IngressClass whose controller is gw.gw.io/ingress-controller are served too.',
    ),
  GW_HTTPS_INGRESS_PORT: port.default(8443).describe('HTTPS ingress listen port.'),
  GW_HTTP_INGRESS_PORT: port.default(8080).describe('HTTP ingress listen port.'),
  GW_INGRESS_PUBLISH_ADDRESS: z
    .string()
    .default('')
    .describe('Addresses (IPs or DNS names, comma-separated) written to status.loadBalancer.ingress of the Ingresses served; empty: not written.'),
  GW_DRIFT_PERIOD: positive.default(60).describe('Seconds between drift scans: each gateway is listed once and differences are restored.'),
  // 16: a reconcile waits on the API server and the gateway (a few requests in a row) far more than it computes;
  // bench/operator, 3 300 resources in 100 namespaces: 27 reconciles/s at 4, 35/s at 16 (operator CPU ~13 %).
  GW_MAX_CONCURRENT_RECONCILES: z.coerce.number().int().min(1).default(16).describe('Reconciles running at once, per kind.'),
  // 300: each new resource costs ~3 requests (finalizer, status, Event); at 100 a burst of 1 000 took 39 s, at 300
  // `kubectl apply` itself is the bottleneck (bench/operator). The apiserver's Priority and Fairness protects it.
  GW_KUBE_CLIENT_QPS: positive.default(300).describe('Kubernetes API requests per second (client side).'),
  GW_KUBE_CLIENT_BURST: z.coerce.number().int().min(1).default(600).describe('Kubernetes API requests allowed at once above the QPS.'),
  GW_RELOAD_DEBOUNCE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(200)
    .describe(
      'Gateway reloads requested within this window are coalesced into one; a reload requested while one runs waits at least as long as that one took.',
    ),
  GW_RECONCILE_TIMEOUT: positive.default(60).describe('Seconds a reconcile may run before it is aborted and retried.'),
});

export type OperatorConfigInput = z.input<typeof OperatorConfigSchema>;
export type RawOperatorConfig = z.output<typeof OperatorConfigSchema>;

export interface OperatorConfig {
  licenseKey: string;
  mode: 'ce' | 'pro';
  url: string;
  auth: string;
  org: string;
  insecureSkipVerify: boolean;
  /** Empty: all namespaces. */
  watchNamespaces: string[];
  ingressClass: string;
  httpsIngressPort: number;
  httpIngressPort: number;
  /** IPs or DNS names for Ingress status.loadBalancer; empty: not written. */
  ingressPublishAddresses: string[];
  driftPeriodMs: number;
  maxConcurrentReconciles: number;
  kubeQps: number;
  kubeBurst: number;
  reloadDebounceMs: number;
  reconcileTimeoutMs: number;
}

export class OperatorConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`invalid operator configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'OperatorConfigError';
    this.problems = problems;
  }
}

export const CONFIG_KEYS = Object.keys(OperatorConfigSchema.shape) as (keyof RawOperatorConfig)[];

/** Every key with its default (undefined: required) and meaning: the README's table and `gw operator --help`. */
export function operatorConfigReference(): { key: string; default: unknown; description: string }[] {
  return CONFIG_KEYS.map((key) => {
    const field = OperatorConfigSchema.shape[key];
    const probe = field.safeParse(undefined);
    return { key, default: probe.success ? probe.data : undefined, description: field.description ?? '' };
  });
}

/** Builds the configuration from the environment, falling back to `secretData` (the secret's decoded keys). */
export function parseOperatorConfig(env: NodeJS.ProcessEnv, secretData: Record<string, string> = {}): OperatorConfig {
  const raw: Record<string, string> = {};
  for (const key of CONFIG_KEYS) {
    const value = env[key] ?? secretData[key];
    if (value !== undefined) raw[key] = value;
  }
  const parsed = OperatorConfigSchema.safeParse(raw);
  if (!parsed.success) {
    throw new OperatorConfigError(issueLines(parsed.error));
  }
  const c = parsed.data;
  return {
    licenseKey: c.GW_OPERATOR_LICENSEKEY,
    mode: c.GW_MODE,
    url: c.GW_URL,
    auth: c.GW_AUTH,
    org: c.GW_ORG,
    insecureSkipVerify: c.GW_TLS_INSECURE_SKIP_VERIFY,
    watchNamespaces: c.WATCH_NAMESPACE.split(',')
      .map((n) => n.trim())
      .filter(Boolean),
    ingressClass: c.WATCH_INGRESS_CLASS,
    httpsIngressPort: c.GW_HTTPS_INGRESS_PORT,
    httpIngressPort: c.GW_HTTP_INGRESS_PORT,
    ingressPublishAddresses: parsePublishAddresses(c.GW_INGRESS_PUBLISH_ADDRESS),
    driftPeriodMs: c.GW_DRIFT_PERIOD * 1000,
    maxConcurrentReconciles: c.GW_MAX_CONCURRENT_RECONCILES,
    kubeQps: c.GW_KUBE_CLIENT_QPS,
    kubeBurst: c.GW_KUBE_CLIENT_BURST,
    reloadDebounceMs: c.GW_RELOAD_DEBOUNCE_MS,
    reconcileTimeoutMs: c.GW_RECONCILE_TIMEOUT * 1000,
  };
}
