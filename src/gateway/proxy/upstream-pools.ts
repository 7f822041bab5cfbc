// One undici Pool (keep-alive connections) per upstream origin and TLS setup, shared by every API using it.
// upstream_hosts maps a host name to the address to dial (the Host header and TLS server name stay the name):
// that is how a `<service>.<namespace>.svc` target is reached outside a cluster. An HTTPS upstream may get a
// client certificate (upstream mTLS) and pinned public keys, checked on each TLS socket before the pool writes
// anything to it (upstream-connector.ts); each distinct setup has its own pool, so connections are never shared between
// setups. After a reload, pools of origins no API uses any more are closed once their in-flight requests finish.
import { Pool } from 'undici';
import type { UpstreamTarget } from '../definition/version-spec.ts';
import type { UpstreamTls } from '../pipeline/services.ts';
import { upstreamConnector } from './upstream-connector.ts';

export class UpstreamPools {
  /** By `origin` or `origin tls.id`. */
  readonly #pools = new Map<string, Pool>();
  readonly #hosts: Record<string, string>;

  constructor(hosts: Record<string, string>) {
    this.#hosts = hosts;
  }

  get(target: UpstreamTarget, tls?: UpstreamTls): Pool {
    const poolKey = tls ? `${target.origin} ${tls.id}` : target.origin;
    let pool = this.#pools.get(poolKey);
    if (!pool) {
      const url = new URL(target.origin);
      const address = this.#hosts[url.hostname];
      const dial = address ? `${url.protocol}//${address.includes(':') && !address.startsWith('[') ? `[${address}]` : address}:${url.port}` : target.origin;
      pool = new Pool(dial, { keepAliveTimeout: 10_000, ...connectOptions(url, address !== undefined, tls) });
      this.#pools.set(poolKey, pool);
    }
    return pool;
  }

  /** Closes the pools of origins not in `used` (gracefully: requests in flight finish). */
  retain(used: Set<string>): void {
    for (const [poolKey, pool] of this.#pools) {
      if (used.has(poolKey.split(' ')[0]!)) continue;
      this.#pools.delete(poolKey);
      void pool.close();
    }
  }

  async close(): Promise<void> {
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    await Promise.all(pools.map((pool) => pool.close()));
  }
}

function connectOptions(url: URL, redirected: boolean, tls: UpstreamTls | undefined): Pick<Pool.Options, 'connect'> {
  if (url.protocol !== 'https:') return {};
  const options = {
    ...(redirected ? { servername: url.hostname } : {}),
    // The stored PEM holds the chain and its key: OpenSSL reads the certificates and the key from it each.
    ...(tls?.clientCertificate ? { cert: tls.clientCertificate, key: tls.clientCertificate } : {}),
    // Every pinned connection is a full handshake whose chain is checked.
    ...(tls?.pinnedKeys ? { maxCachedSessions: 0 } : {}),
  };
  return { connect: upstreamConnector(options, tls?.pinnedKeys ? new Set(tls.pinnedKeys) : undefined, url.host) };
}
