// One handle per gateway (or dashboard) the operator talks to — its management client, its coalescing reloader
// and its mirror — shared by every resource synced to it, whichever context names it. Keyed by mode, URL and
// credentials, so two OperatorContexts for one gateway share one handle.
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { ManagementClient } from '../mgmt/client.ts';
import { DashboardClient } from '../mgmt/dashboard.ts';
import { GatewayClient, type GatewayClientOptions } from '../mgmt/gateway.ts';
import { GatewayMirror } from './mirror.ts';
import { Reloader } from './reloader.ts';

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
}

export class GatewayRegistry {
  readonly #handles = new Map<string, GatewayHandle>();
  readonly #reloadDebounceMs: number;
  readonly #log: Logger;
  readonly #clientFor: (env: GatewayEnv) => ManagementClient;

  constructor(reloadDebounceMs: number, log: Logger, clientFor: (env: GatewayEnv) => ManagementClient = (env) => defaultClient(env)) {
    this.#reloadDebounceMs = reloadDebounceMs;
    this.#log = log;
    this.#clientFor = clientFor;
  }

  handle(env: GatewayEnv): GatewayHandle {
    const key = `${env.mode} ${env.url} ${createHash('sha256').update(env.auth).digest('hex').slice(0, 16)}`;
    let handle = this.#handles.get(key);
    if (!handle) {
      const client = this.#clientFor(env);
      handle = { key, env, client, reloader: new Reloader(client, { debounceMs: this.#reloadDebounceMs }, this.#log), mirror: new GatewayMirror(client) };
      this.#handles.set(key, handle);
    }
    return handle;
  }

  all(): GatewayHandle[] {
    return [...this.#handles.values()];
  }

  stop(): void {
    for (const handle of this.#handles.values()) handle.reloader.stop();
  }
}

/** The management client of a gateway (ce) or dashboard (pro); observe receives every HTTP exchange (metrics). */
export function defaultClient(env: GatewayEnv, observe?: GatewayClientOptions['observe']): ManagementClient {
  const common = { url: env.url, insecureSkipVerify: env.insecureSkipVerify, ...(observe ? { observe } : {}) };
  if (env.mode === 'pro') return new DashboardClient({ ...common, accessKey: env.auth, orgId: env.org });
  return new GatewayClient({ ...common, secret: env.auth });
}
