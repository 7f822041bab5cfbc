// One handle per gateway (or dashboard) the operator talks to — its management client, its coalescing reloader
// and its mirror — shared by every resource synced to it, whichever context names it. Keyed by mode, URL and
// credentials, so two OperatorContexts for one gateway share one handle. Each caller names itself as the handle's
// owner (an OperatorContext's key, or DEFAULT_OWNER for the operator's own settings): when an owner's URL or
// secret changes, the handle it used before is dropped once no owner uses it any more (its reloader stops, its
// `retired` signal aborts so its change-feed watch ends), rather than polling the old gateway with old credentials
// for ever. refuseWrites() fences every handle's client, present and future (a deposed leader): writes to gateways
// and dashboards fail with WritesRefusedError before they are sent; reads go on.
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { WritesRefusedError } from '../../kube/errors.ts';
import { currentReconciledObject, currentReconcileId } from '../../kube/reconcile-id.ts';
import { K8S_OBJECT_HEADER } from '../../http/k8s-object-header.ts';
import { RECONCILE_ID_HEADER } from '../../http/write-log.ts';
import type { ManagementClient } from '../../mgmt/client.ts';
import { DashboardClient } from '../../mgmt/dashboard.ts';
import { GatewayClient, type GatewayClientOptions } from '../../mgmt/gateway.ts';
import { GatewayMirror } from './mirror.ts';
import { Reloader } from './reloader.ts';

/** The owner of the handle of the operator's own settings (GW_*): never dropped. */
export const DEFAULT_OWNER = '';

/** The ManagementClient methods that change a gateway or dashboard. */
const WRITES = new Set<keyof ManagementClient>([
  'putApi',
  'deleteApi',
  'putOasApi',
  'deleteOasApi',
  'putPolicy',
  'deletePolicy',
  'reload',
  'uploadCertificate',
]);

export interface GatewayEnv {
  mode: 'ce' | 'pro';
  url: string;
  auth: string;
  org: string;
  insecureSkipVerify: boolean;
}

export interface GatewayHandle {
  key: string;
  env: GatewayEnv;
  client: ManagementClient;
  reloader: Reloader;
  mirror: GatewayMirror;
  /** Aborts when the handle is dropped (no owner uses it any more): what watches it must stop. */
  retired: AbortSignal;
}

export class GatewayRegistry {
  readonly #handles = new Map<string, { handle: GatewayHandle; retire: AbortController }>();
  /** owner -> the key of the handle it uses now. */
  readonly #owners = new Map<string, string>();
  readonly #reloadDebounceMs: number;
  readonly #log: Logger;
  readonly #clientFor: (env: GatewayEnv) => ManagementClient;
  #writesRefused: string | undefined;

  constructor(reloadDebounceMs: number, log: Logger, clientFor: (env: GatewayEnv) => ManagementClient = (env) => defaultClient(env)) {
    this.#reloadDebounceMs = reloadDebounceMs;
    this.#log = log;
    this.#clientFor = clientFor;
  }

  /** The handle of `env`, used by `owner` (whose previous handle is dropped when nobody else uses it). */
  handle(env: GatewayEnv, owner: string): GatewayHandle {
    const key = `${env.mode} ${env.url} ${createHash('sha256').update(env.auth).digest('hex').slice(0, 16)}`;
    let entry = this.#handles.get(key);
    if (!entry) {
      const client = this.#fenced(this.#clientFor(env));
      const retire = new AbortController();
      entry = {
        handle: {
          key,
          env,
          client,
          reloader: new Reloader(client, { debounceMs: this.#reloadDebounceMs }, this.#log),
          mirror: new GatewayMirror(client),
          retired: retire.signal,
        },
        retire,
      };
      this.#handles.set(key, entry);
    }
    const previous = this.#owners.get(owner);
    this.#owners.set(owner, key);
    if (previous !== undefined && previous !== key && ![...this.#owners.values()].includes(previous)) this.#drop(previous);
    return entry.handle;
  }

  all(): GatewayHandle[] {
    return [...this.#handles.values()].map((e) => e.handle);
  }

  /** Fences every client, present and future: writes fail before they are sent. `why` goes into the error. */
  refuseWrites(why: string): void {
    this.#writesRefused = why;
  }

  stop(): void {
    for (const { handle } of this.#handles.values()) handle.reloader.stop();
  }

  #drop(key: string): void {
    const entry = this.#handles.get(key);
    if (!entry) return;
    this.#handles.delete(key);
    entry.handle.reloader.stop();
    entry.retire.abort();
    this.#log.info({ gateway: entry.handle.env.url }, 'gateway handle dropped: no OperatorContext uses these settings any more');
  }

  #fenced(client: ManagementClient): ManagementClient {
    return new Proxy(client, {
      get: (target, property, receiver) => {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        const method = property as keyof ManagementClient;
        return (...args: unknown[]): unknown => {
          if (this.#writesRefused !== undefined && WRITES.has(method))
            return Promise.reject(new WritesRefusedError(`${String(method)} on ${target.url} refused: ${this.#writesRefused}`));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  }
}

/** The kinds whose reconcile writes the dashboard objects that come from them (an Ingress writes ApiDefinition resources, not APIs). */
const OWNING_KINDS = new Set(['ApiDefinition', 'GwOasApiDefinition', 'GwStreamsApiDefinition', 'SecurityPolicy']);

/**
 * X-Gw-Reconcile-Id: the id of the reconcile making a call (none outside reconciles), for the server's write log;
 * and x-gw-k8s-object: the object it reconciles when that object owns what it writes, so the dashboard refuses
 * people's writes to it (a hand edit the operator would silently put back).
 */
export function reconcileHeaders(): Record<string, string> {
  const reconcileID = currentReconcileId();
  if (reconcileID === undefined) return {};
  const object = currentReconciledObject();
  const owning = object !== undefined && OWNING_KINDS.has(object.split(' ')[0]!);
  return { [RECONCILE_ID_HEADER]: reconcileID, ...(owning ? { [K8S_OBJECT_HEADER]: object } : {}) };
}

/** The management client of a gateway (ce) or dashboard (pro); observe receives every HTTP exchange (metrics), trace traces it (OpenTelemetry). */
export function defaultClient(env: GatewayEnv, observe?: GatewayClientOptions['observe'], trace?: GatewayClientOptions['trace']): ManagementClient {
  const common = {
    url: env.url,
    insecureSkipVerify: env.insecureSkipVerify,
    callHeaders: reconcileHeaders,
    ...(observe ? { observe } : {}),
    ...(trace ? { trace } : {}),
  };
  if (env.mode === 'pro') return new DashboardClient({ ...common, accessKey: env.auth, orgId: env.org });
  return new GatewayClient({ ...common, secret: env.auth });
}
