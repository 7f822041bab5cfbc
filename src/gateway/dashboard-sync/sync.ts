// Licensed mode: the dashboard is the source of APIs, policies, keys and certificates. At start the gateway asks it once; when
// that fails it serves the last good snapshot from disk (and says so in /ready). Then it polls every
// poll_interval_seconds with the version it holds; a new version is applied in this order: keys and certificates
// written to (and removed from) the gateway's store, the snapshot saved, then one reload (which also rebuilds the
// TLS listeners' certificates), which builds the new routing table from
// remote() and swaps it in. While the dashboard is unreachable nothing changes: the last good configuration is
// served, and the outage is reported as a load problem until it ends.
// Keys and certificates: only those that came from the dashboard are ever removed; quota and rate counters live apart from sessions
// and survive updates. A dashboard storing hashed keys cannot feed a gateway that does not hash (the credential
// is not there to look up): those keys are reported and skipped.
import type { Logger } from 'pino';
import { Session } from '../../domain/session.ts';
import { storageIdOf } from '../../domain/key-hash.ts';
import { describeIssues } from '../../domain/zod-issues.ts';
import type { GatewayConfig } from '../config.ts';
import type { LoadProblem } from '../load-problem.ts';
import type { SessionCache } from '../session/session-cache.ts';
import type { Store, StoredApi, StoredPolicy } from '../store/store.ts';
import { NodeConfigClient } from './node-client.ts';
import { readCachedSnapshot, snapshotFile, writeCachedSnapshot, type DashboardSnapshot, type RemoteCert, type RemoteKey } from './snapshot.ts';

export interface RemoteDefinitions {
  apis: StoredApi[];
  policies: StoredPolicy[];
  problems: LoadProblem[];
}

export class DashboardSync {
  readonly #config: GatewayConfig;
  readonly #store: Store;
  readonly #sessions: SessionCache;
  readonly #log: Logger;
  readonly #reload: () => Promise<unknown>;
  readonly #client: NodeConfigClient;
  readonly #file: string;
  #snapshot: DashboardSnapshot | undefined;
  #unreachableSince: string | undefined;
  #lastError = '';
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(config: GatewayConfig, store: Store, sessions: SessionCache, log: Logger, reload: () => Promise<unknown>) {
    this.#config = config;
    this.#store = store;
    this.#sessions = sessions;
    this.#log = log;
    this.#reload = reload;
    const options = config.db_app_conf_options;
    this.#client = new NodeConfigClient(options.connection_string, options.node_secret, options.org_id);
    this.#file = snapshotFile(config.storage.path);
  }

  /** The first pull (or the cached snapshot when the dashboard cannot be reached); polling starts after. */
  async start(): Promise<void> {
    if (!(await this.#pull())) {
      const cached = readCachedSnapshot(this.#file);
      if (cached) {
        this.#snapshot = cached;
        this.#log.warn({ dashboard: this.#client.url, version: cached.version }, 'dashboard unreachable at start: serving the last configuration it gave');
      } else {
        this.#log.error({ dashboard: this.#client.url }, 'dashboard unreachable at start and no saved configuration: serving nothing from it until it answers');
      }
    }
    this.#schedule();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
  }

  /** What the loader serves from the dashboard now. */
  remote(): RemoteDefinitions {
    const snapshot = this.#snapshot;
    const problems: LoadProblem[] = [];
    if (this.#unreachableSince) {
      problems.push({
        source: 'dashboard',
        message: `dashboard ${this.#client.url} unreachable since ${this.#unreachableSince} (${this.#lastError}); serving ${snapshot ? `configuration version ${snapshot.version.slice(0, 12)}` : 'nothing from it'}`,
      });
    }
    if (!snapshot) return { apis: [], policies: [], problems };
    return {
      apis: this.#config.use_db_app_configs ? snapshot.apis.map((api) => ({ id: api.id, format: api.format, definition: api.definition })) : [],
      policies: this.#config.policies.policy_source === 'service' ? snapshot.policies.map((policy) => policy as unknown as StoredPolicy) : [],
      problems,
    };
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      void this.#pull().finally(() => this.#schedule());
    }, this.#config.db_app_conf_options.poll_interval_seconds * 1000);
    this.#timer.unref();
  }

  /** True when the dashboard answered (changed or not). */
  async #pull(): Promise<boolean> {
    let result;
    try {
      result = await this.#client.fetch(this.#snapshot?.version);
    } catch (error) {
      this.#lastError = (error as Error).message;
      if (!this.#unreachableSince) {
        this.#unreachableSince = new Date().toISOString();
        this.#log.error({ dashboard: this.#client.url, err: this.#lastError }, 'dashboard unreachable: serving the last good configuration');
        await this.#reload().catch(() => undefined); // /ready reports the outage
      }
      return false;
    }
    const recovered = this.#unreachableSince !== undefined;
    this.#unreachableSince = undefined;
    if (!result.changed) {
      if (recovered) await this.#reload();
      return true;
    }
    const previous = this.#snapshot;
    if (this.#config.use_db_app_configs) {
      const saved = previous ?? readCachedSnapshot(this.#file);
      await this.#syncKeys(saved?.keys ?? [], result.snapshot.keys);
      await this.#syncCerts(saved?.certs ?? [], result.snapshot.certs);
    }
    this.#snapshot = result.snapshot;
    writeCachedSnapshot(this.#file, result.snapshot);
    this.#log.info(
      {
        version: result.snapshot.version.slice(0, 12),
        apis: result.snapshot.apis.length,
        policies: result.snapshot.policies.length,
        keys: result.snapshot.keys.length,
      },
      'dashboard configuration changed',
    );
    await this.#reload();
    return true;
  }

  async #syncKeys(before: RemoteKey[], after: RemoteKey[]): Promise<void> {
    const wanted = new Map<string, { session: Session; raw: string }>();
    for (const key of after) {
      const id = this.#storageId(key);
      if (!id) continue;
      const session = Session.safeParse(key.session);
      if (session.success) wanted.set(id, { session: session.data, raw: JSON.stringify(key.session) });
      else
        this.#log.error(
          { key: `****${id.slice(-4)}`, problem: describeIssues(session.error, { limit: 1 }) },
          'a key from the dashboard is not a valid session: skipped',
        );
    }
    const had = new Map<string, string>();
    for (const key of before) {
      const id = this.#storageId(key, false);
      if (id) had.set(id, JSON.stringify(key.session));
    }
    for (const [id, { session, raw }] of wanted) {
      if (had.get(id) === raw) continue;
      await this.#store.putKey(id, session);
      this.#sessions.invalidate(id);
    }
    for (const id of had.keys()) {
      if (wanted.has(id)) continue;
      await this.#store.deleteKey(id);
      this.#sessions.invalidate(id);
    }
  }

  async #syncCerts(before: RemoteCert[], after: RemoteCert[]): Promise<void> {
    const had = new Map(before.map((cert) => [cert.id, cert.pem]));
    const wanted = new Set<string>();
    for (const cert of after) {
      wanted.add(cert.id);
      if (had.get(cert.id) !== cert.pem) await this.#store.putCert({ id: cert.id, pem: cert.pem });
    }
    for (const id of had.keys()) if (!wanted.has(id)) await this.#store.deleteCert(id);
  }

  /** The id the gateway looks the key up by, or undefined when it cannot (hashed upstream, not hashed here). */
  #storageId(key: RemoteKey, report = true): string | undefined {
    if (key.hashed === this.#config.hash_keys) return key.storage_id;
    if (!key.hashed) return storageIdOf(key.storage_id, true);
    if (report)
      this.#log.error({ key: `****${key.storage_id.slice(-4)}` }, 'the dashboard hashes keys but this gateway does not (hash_keys: false): key skipped');
    return undefined;
  }
}
