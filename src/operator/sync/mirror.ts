// What the operator knows a gateway holds: the content hash of every Classic API, OAS API and policy on it,
// filled by ONE list of each per refresh and kept current by the operator's own writes. Reconciles compare
// against it instead of reading each object back, so re-verifying a thousand resources after a restart costs
// three list requests, and the drift scan finds every difference with the same three. What the operator records
// while a refresh is listing wins over that listing (the list may have been read before the write landed).
import type { ManagementClient, Definition } from '../../mgmt/client.ts';
import { contentHash } from '../../domain/canonical-json.ts';

export type MirrorKind = 'apis' | 'oas' | 'policies';

export class GatewayMirror {
  readonly #client: ManagementClient;
  readonly #hashes: Record<MirrorKind, Map<string, string>> = { apis: new Map(), oas: new Map(), policies: new Map() };
  #refreshedAt = 0;
  #refreshing: Promise<void> | undefined;
  /** Records made while a refresh lists (undefined: no refresh running). */
  #recordedDuringRefresh: { kind: MirrorKind; id: string; hash: string | undefined }[] | undefined;

  constructor(client: ManagementClient) {
    this.#client = client;
  }

  get refreshedAt(): number {
    return this.#refreshedAt;
  }

  /** Lists the gateway (one request per kind); concurrent callers share one refresh. */
  refresh(): Promise<void> {
    this.#refreshing ??= this.#load().finally(() => (this.#refreshing = undefined));
    return this.#refreshing;
  }

  /** Refreshes unless a refresh happened within maxAgeMs. The shared refresh goes on when `signal` aborts; the
   * caller stops waiting for it at once. */
  async ensureFresh(maxAgeMs: number, signal?: AbortSignal): Promise<void> {
    if (Date.now() - this.#refreshedAt <= maxAgeMs) return;
    if (!signal) return this.refresh();
    signal.throwIfAborted();
    let stopWaiting!: () => void;
    const aborted = new Promise<never>((_resolve, reject) => {
      stopWaiting = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      signal.addEventListener('abort', stopWaiting, { once: true });
    });
    try {
      await Promise.race([this.refresh(), aborted]);
    } finally {
      signal.removeEventListener('abort', stopWaiting);
    }
  }

  /** Hash of the gateway's copy; undefined when the gateway holds no such object. */
  hash(kind: MirrorKind, id: string): string | undefined {
    return this.#hashes[kind].get(id);
  }

  ids(kind: MirrorKind): string[] {
    return [...this.#hashes[kind].keys()];
  }

  /** Records what the operator itself just wrote (a hash) or deleted (undefined). */
  record(kind: MirrorKind, id: string, hash: string | undefined): void {
    this.#recordedDuringRefresh?.push({ kind, id, hash });
    if (hash === undefined) this.#hashes[kind].delete(id);
    else this.#hashes[kind].set(id, hash);
  }

  async #load(): Promise<void> {
    const recorded: { kind: MirrorKind; id: string; hash: string | undefined }[] = [];
    this.#recordedDuringRefresh = recorded;
    try {
      const [classic, oas, policies] = await Promise.all([this.#client.listApis(), this.#client.listOasApis(), this.#client.listPolicies()]);
      const oasIds = new Set(oas.map(oasIdOf).filter((id): id is string => id !== undefined));
      this.#hashes.oas = index(oas, oasIdOf);
      this.#hashes.apis = index(
        classic.filter((api) => !oasIds.has(String(api.api_id))),
        (api) => (typeof api.api_id === 'string' ? api.api_id : undefined),
      );
      this.#hashes.policies = index(policies, (policy) => (typeof policy.id === 'string' ? policy.id : undefined));
      this.#refreshedAt = Date.now();
    } finally {
      this.#recordedDuringRefresh = undefined;
    }
    for (const { kind, id, hash } of recorded) this.record(kind, id, hash);
  }
}

export function oasIdOf(document: Definition): string | undefined {
  const ext = document['x-gw-api-gateway'] as { info?: { id?: unknown } } | undefined;
  return typeof ext?.info?.id === 'string' ? ext.info.id : undefined;
}

function index(definitions: Definition[], idOf: (definition: Definition) => string | undefined): Map<string, string> {
  const hashes = new Map<string, string>();
  for (const definition of definitions) {
    const id = idOf(definition);
    if (id !== undefined) hashes.set(id, contentHash(definition));
  }
  return hashes;
}
