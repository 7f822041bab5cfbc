// One undici Pool (keep-alive connections) per upstream origin, shared by every API using it. upstream_hosts
// maps a host name to the address to dial (the Host header and TLS server name stay the name): that is how a
// `<service>.<namespace>.svc` target is reached outside a cluster. After a reload, pools of origins no API uses
// any more are closed once their in-flight requests finish.
import { Pool } from 'undici';
import type { UpstreamTarget } from '../definition/api-spec.ts';

export class UpstreamPools {
  readonly #pools = new Map<string, Pool>();
  readonly #hosts: Record<string, string>;

  constructor(hosts: Record<string, string>) {
    this.#hosts = hosts;
  }

  get(target: UpstreamTarget): Pool {
    let pool = this.#pools.get(target.origin);
    if (!pool) {
      const url = new URL(target.origin);
      const address = this.#hosts[url.hostname];
      const dial = address ? `${url.protocol}//${address.includes(':') && !address.startsWith('[') ? `[${address}]` : address}:${url.port}` : target.origin;
      pool = new Pool(dial, {
        keepAliveTimeout: 10_000,
        ...(address && url.protocol === 'https:' ? { connect: { servername: url.hostname } } : {}),
      });
      this.#pools.set(target.origin, pool);
    }
    return pool;
  }

  /** Closes the pools of origins not in `used` (gracefully: requests in flight finish). */
  retain(used: Set<string>): void {
    for (const [origin, pool] of this.#pools) {
      if (used.has(origin)) continue;
      this.#pools.delete(origin);
      void pool.close();
    }
  }

  async close(): Promise<void> {
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    await Promise.all(pools.map((pool) => pool.close()));
  }
}
