// Leader election on a coordination.k8s.io Lease, with client-go's algorithm, so `replicaCount: 2` is safe: one
// replica reconciles, the other waits and takes over when the leader stops renewing.
//
//   acquire   every retryPeriod: read the Lease; take it when it is free (no holder), ours, or expired. Expiry is
//             judged by OUR clock: the record is expired when it has not changed for leaseDuration since we first
//             saw it (clock skew between nodes cannot steal a live lease). Writes carry the resourceVersion, so of
//             two candidates at most one wins (the other gets 409 and keeps waiting).
//   renew     every retryPeriod while leading. Leadership is lost (onLost runs: the operator fences its writes and
//             exits, as controller-runtime does, and is restarted clean) once renewDeadline has passed since the
//             START of the last successful renewal; every attempt is aborted at that deadline, so a request that
//             hangs cannot hold the leader past it. As leaseDuration > renewDeadline, the old leader has stopped
//             before a standby, which waits leaseDuration from when it saw the last renewal, can take the Lease.
//   release   on a graceful stop the Lease is emptied (holder "", duration 1 s) so the standby takes over at once.
// Its requests go through a client of their own (KubeClient.unthrottled: no client-side rate limit, its own
// connections), so renewals never queue behind the reconciles' requests. Every attempt, acquiring or renewing,
// and the release carry their own deadline. Defaults are client-go's: leaseDuration 15 s, renewDeadline 10 s,
// retryPeriod 2 s.
import type { Logger } from 'pino';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CallOptions, KubeClient } from './client.ts';
import { isConflict, isNotFound, KubeApiError } from './errors.ts';
import type { KubeObject } from './object.ts';
import { CoreResources } from './resource.ts';

export interface LeaderElectionOptions {
  namespace: string;
  name: string;
  identity: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  log: Logger;
}

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

type Lease = KubeObject & { spec?: LeaseSpec };

export class LeaderElector {
  readonly #client: KubeClient;
  readonly #o: Required<Omit<LeaderElectionOptions, 'log'>> & { log: Logger };
  #observed: { record: string; at: number } | undefined;
  #leading = false;

  constructor(client: KubeClient, options: LeaderElectionOptions) {
    this.#client = client.unthrottled();
    this.#o = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000, ...options };
  }

  get leading(): boolean {
    return this.#leading;
  }

  get identity(): string {
    return this.#o.identity;
  }

  /** Resolves once this process holds the Lease; false when the signal aborted first. */
  async acquire(signal: AbortSignal): Promise<boolean> {
    let waitingLogged = false;
    while (!signal.aborted) {
      const attempt = AbortSignal.any([signal, AbortSignal.timeout(this.#o.renewDeadlineMs)]);
      const outcome = await this.#tryAcquireOrRenew({ signal: attempt }).catch((error: unknown) => {
        if (signal.aborted) return undefined;
        this.#o.log.warn({ lease: this.#leaseName, err: (error as Error).message }, 'leader election: lease not written; retrying');
        return undefined;
      });
      if (outcome === true) {
        this.#leading = true;
        this.#o.log.info({ lease: this.#leaseName, identity: this.#o.identity }, 'leader election: acquired the lease, leading');
        return true;
      }
      if (outcome !== undefined && !waitingLogged) {
        this.#o.log.info({ lease: this.#leaseName, holder: outcome }, 'leader election: another replica leads; standing by');
        waitingLogged = true;
      }
      await sleep(this.#o.retryPeriodMs, undefined, { signal }).catch(() => undefined);
    }
    return false;
  }

  /** Renews until the signal aborts (then releases) or renewal fails for renewDeadline (then calls onLost). */
  async hold(signal: AbortSignal, onLost: () => void): Promise<void> {
    // When the last successful renewal STARTED: what a standby may have seen, the conservative end.
    let lastRenewed = Date.now();
    while (!signal.aborted) {
      await sleep(this.#o.retryPeriodMs, undefined, { signal }).catch(() => undefined);
      if (signal.aborted) break;
      const started = Date.now();
      const remaining = lastRenewed + this.#o.renewDeadlineMs - started;
      const renewed =
        remaining <= 0
          ? false
          : await this.#tryAcquireOrRenew({ signal: AbortSignal.any([signal, AbortSignal.timeout(remaining)]) }).catch((error: unknown) => {
              if (!signal.aborted) this.#o.log.warn({ lease: this.#leaseName, err: (error as Error).message }, 'leader election: renewal failed');
              return false;
            });
      if (signal.aborted) break;
      if (renewed === true) {
        lastRenewed = started;
        continue;
      }
      if (typeof renewed === 'string' || Date.now() - lastRenewed >= this.#o.renewDeadlineMs) {
        this.#leading = false;
        this.#o.log.error({ lease: this.#leaseName, holder: typeof renewed === 'string' ? renewed : undefined }, 'leader election: leadership lost');
        onLost();
        return;
      }
    }
    await this.release();
  }

  /** Gives the Lease up if we hold it, so a standby need not wait for it to expire. */
  async release(): Promise<void> {
    if (!this.#leading) return;
    this.#leading = false;
    const call = { signal: AbortSignal.timeout(this.#o.renewDeadlineMs) };
    try {
      const lease = await this.#client.get<Lease>(CoreResources.lease, this.#o.namespace, this.#o.name, call);
      if (lease.spec?.holderIdentity !== this.#o.identity) return;
      const now = microTime(new Date());
      await this.#client.replace(
        CoreResources.lease,
        { ...lease, spec: { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: now, acquireTime: now } },
        call,
      );
      this.#o.log.info({ lease: this.#leaseName }, 'leader election: lease released');
    } catch (error) {
      this.#o.log.warn({ lease: this.#leaseName, err: (error as Error).message }, 'leader election: lease not released; it expires by itself');
    }
  }

  get #leaseName(): string {
    return `${this.#o.namespace}/${this.#o.name}`;
  }

  /** true: we hold it now; a string: the current holder (not us). Throws on API errors other than a lost race. */
  async #tryAcquireOrRenew(call: CallOptions): Promise<true | string> {
    const now = new Date();
    const mine: LeaseSpec = {
      holderIdentity: this.#o.identity,
      leaseDurationSeconds: Math.ceil(this.#o.leaseDurationMs / 1000),
      acquireTime: microTime(now),
      renewTime: microTime(now),
      leaseTransitions: 0,
    };
    let lease: Lease;
    try {
      lease = await this.#client.get<Lease>(CoreResources.lease, this.#o.namespace, this.#o.name, call);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      try {
        await this.#client.create<Lease>(
          CoreResources.lease,
          { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.#o.name, namespace: this.#o.namespace }, spec: mine },
          call,
        );
        this.#observe(mine, now.getTime());
        return true;
      } catch (createError) {
        if (createError instanceof KubeApiError && createError.status === 409) return 'another candidate (created first)';
        throw createError;
      }
    }
    const current = lease.spec ?? {};
    this.#observe(current, now.getTime());
    const holder = current.holderIdentity ?? '';
    const ours = holder === this.#o.identity;
    const expired = this.#observed!.at + (current.leaseDurationSeconds ?? 0) * 1000 <= now.getTime();
    if (holder && !ours && !expired) return holder;
    const spec: LeaseSpec = ours
      ? { ...current, renewTime: mine.renewTime, leaseDurationSeconds: mine.leaseDurationSeconds }
      : { ...mine, leaseTransitions: (current.leaseTransitions ?? 0) + 1 };
    try {
      await this.#client.replace<Lease>(CoreResources.lease, { ...lease, spec }, call);
    } catch (error) {
      if (isConflict(error)) return holder || 'another candidate (wrote first)';
      throw error;
    }
    this.#observe(spec, now.getTime());
    return true;
  }

  /** Remembers when the record last changed, by our clock. */
  #observe(spec: LeaseSpec, at: number): void {
    const record = JSON.stringify([spec.holderIdentity, spec.renewTime, spec.leaseDurationSeconds]);
    if (this.#observed?.record !== record) this.#observed = { record, at };
  }
}

/** metav1.MicroTime: RFC 3339 with microseconds. */
function microTime(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
