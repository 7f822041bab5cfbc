// Which gateway (or dashboard), organisation and credentials a resource is synced with — gw's documented three rules:
//   1. no OperatorContext exists                    -> the operator's own settings (GW_*)
//   2. OperatorContexts exist, the resource names none -> the operator's own settings
//   3. the resource names one in contextRef          -> that context's settings
// A contextRef without a namespace means the resource's own namespace (Tyk silently used "default").
// A context's spec.env wins over its secretRef Secret (keys GW_MODE, GW_URL, GW_AUTH, GW_ORG,
// GW_TLS_INSECURE_SKIP_VERIFY), read on demand and cached for 10 s. A context being deleted (held by its finalizer
// while resources use it) resolves only for resources that are being deleted themselves. A missing or incomplete context is a
// ContextError naming what is missing; credentials never appear in it.
import type { Cache } from '../../kube/cache.ts';
import type { KubeClient } from '../../kube/client.ts';
import { isNotFound } from '../../kube/errors.ts';
import { keyOf, type KubeObject } from '../../kube/object.ts';
import { CoreResources } from '../../kube/resource.ts';
import type { OperatorConfig } from '../process/config.ts';
import { ContextError } from './errors.ts';
import { DEFAULT_OWNER, type GatewayEnv, type GatewayHandle, type GatewayRegistry } from './gateways.ts';
import type { OperatorContextObject, SecretObject } from '../cluster/resources.ts';

export interface ResolvedContext {
  /** `namespace/name` of the OperatorContext, or undefined for the operator's own settings. */
  context: string | undefined;
  gateway: GatewayHandle;
}

interface WithContextRef extends KubeObject {
  spec?: { contextRef?: { name: string; namespace?: string | undefined } | undefined };
}

const SECRET_TTL_MS = 10_000;

/** The key of the OperatorContext a resource names, if any (also an index value). */
export function contextKeyOf(object: WithContextRef): string | undefined {
  const ref = object.spec?.contextRef;
  return ref ? keyOf(ref.namespace || object.metadata.namespace, ref.name) : undefined;
}

export class ContextResolver {
  readonly #defaults: GatewayEnv;
  readonly #contexts: Cache<OperatorContextObject>;
  readonly #kube: KubeClient;
  readonly #registry: GatewayRegistry;
  readonly #secrets = new Map<string, { data: Record<string, string>; at: number }>();

  constructor(config: OperatorConfig, contexts: Cache<OperatorContextObject>, kube: KubeClient, registry: GatewayRegistry) {
    this.#defaults = { mode: config.mode, url: config.url, auth: config.auth, org: config.org, insecureSkipVerify: config.insecureSkipVerify };
    this.#contexts = contexts;
    this.#kube = kube;
    this.#registry = registry;
  }

  get defaultGateway(): GatewayHandle {
    return this.#registry.handle(this.#defaults, DEFAULT_OWNER);
  }

  async resolve(object: WithContextRef, signal?: AbortSignal): Promise<ResolvedContext> {
    const key = contextKeyOf(object);
    if (!key) return { context: undefined, gateway: this.#registry.handle(this.#defaults, DEFAULT_OWNER) };
    const context = this.#contexts.get(key);
    if (!context) throw new ContextError(`OperatorContext ${key} (contextRef) does not exist`);
    // A context being deleted still serves the resources being deleted (they must leave its gateway first);
    // nothing new is synced through it.
    if (context.metadata.deletionTimestamp && !object.metadata.deletionTimestamp)
      throw new ContextError(`OperatorContext ${key} (contextRef) is being deleted`);
    return { context: key, gateway: this.#registry.handle(await this.#envOf(key, context, signal), key) };
  }

  async #envOf(key: string, context: OperatorContextObject, signal: AbortSignal | undefined): Promise<GatewayEnv> {
    const env = context.spec.env ?? {};
    const ref = context.spec.secretRef;
    const secret = ref ? await this.#secret(ref.namespace || context.metadata.namespace!, ref.name, key, signal) : {};
    const mode = env.mode ?? secret.GW_MODE;
    const url = env.url ?? secret.GW_URL;
    const auth = env.auth ?? secret.GW_AUTH;
    const org = env.org ?? secret.GW_ORG;
    const missing = [
      ...(mode === undefined ? ['mode (spec.env.mode or GW_MODE)'] : []),
      ...(!url ? ['url (spec.env.url or GW_URL)'] : []),
      ...(!auth ? ['auth (spec.env.auth or GW_AUTH in the secretRef Secret)'] : []),
      ...(!org ? ['org (spec.env.org or GW_ORG)'] : []),
    ];
    if (missing.length > 0) throw new ContextError(`OperatorContext ${key} lacks ${missing.join(', ')}`);
    if (mode !== 'ce' && mode !== 'pro') throw new ContextError(`OperatorContext ${key}: mode must be ce or pro`);
    return {
      mode,
      url: url!,
      auth: auth!,
      org: org!,
      insecureSkipVerify: env.insecureSkipVerify ?? secret.GW_TLS_INSECURE_SKIP_VERIFY === 'true',
    };
  }

  async #secret(namespace: string, name: string, context: string, signal: AbortSignal | undefined): Promise<Record<string, string>> {
    const cacheKey = `${namespace}/${name}`;
    const cached = this.#secrets.get(cacheKey);
    if (cached && Date.now() - cached.at < SECRET_TTL_MS) return cached.data;
    let secret: SecretObject;
    try {
      secret = await this.#kube.get<SecretObject>(CoreResources.secret, namespace, name, { signal });
    } catch (error) {
      if (isNotFound(error)) throw new ContextError(`Secret ${cacheKey} (secretRef of OperatorContext ${context}) does not exist`);
      throw error;
    }
    const data = Object.fromEntries(Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
    this.#secrets.set(cacheKey, { data, at: Date.now() });
    return data;
  }
}
