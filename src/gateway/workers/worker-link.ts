// A worker thread's line to the primary (primary.ts): requests that wait for an answer (store calls, reload
// rounds, broadcasts, metrics) carry an id and resolve when the primary answers it; the primary's own requests
// (prepare/commit a round, apply a broadcast, report metrics, close) go to the handlers the worker registers.
import type { MessagePort } from 'node:worker_threads';
import { ChangeFeed } from '../../http/change-feed.ts';
import type { Lockouts } from '../credentials/lockouts.ts';
import type { StreamSharing } from '../streams/stream-runtime.ts';
import type { SharedHostHealth } from '../uptime/host-checker.ts';
import { deserializeError, type Broadcast, type SerializedError, type StreamRelayed, type ToPrimary, type ToWorker } from './protocol.ts';
import { StreamRelayBatch } from './stream-relay.ts';

/** What a Gateway running as one of several workers asks of the others (gateway.ts). */
export interface WorkerRole {
  readonly index: number;
  /** A reload round over every worker; resolves once all serve the new routing table. */
  reloadAll(): Promise<void>;
  /** Applies a cache change on every other worker; resolves once each has. */
  broadcast(change: Broadcast): Promise<void>;
  /** The change feed every worker serves: one version, one epoch. */
  readonly changeFeed: ChangeFeed;
  /** The gateway's metrics summed over every worker, in Prometheus text format. */
  metrics(): Promise<{ text: string; contentType: string }>;
  /** Uptime checks run by worker 0 alone; the others follow the hosts it has down. */
  readonly uptime: SharedHostHealth;
  /** The basic-auth lock-out's counters, the primary's (one set for every worker). */
  readonly lockouts: Lockouts;
  /** Broker inputs consumed by worker 0 alone; messages for subscribers reach every worker's. */
  readonly streams: StreamSharing;
}

type Answer = Extract<ToWorker, { id: number }>;

export class PrimaryLink implements WorkerRole {
  readonly index: number;
  readonly changeFeed: ChangeFeed;
  readonly uptime: SharedHostHealth;
  readonly lockouts: Lockouts;
  readonly streams: StreamSharing;
  readonly #port: MessagePort;
  #hostsDown: (down: string[]) => void = () => undefined;
  #streamMessage: (key: string, hash: string, message: Buffer) => void = () => undefined;
  readonly #pending = new Map<number, { resolve: (answer: Answer) => void }>();
  #nextId = 1;

  constructor(port: MessagePort, index: number, epoch: string) {
    this.#port = port;
    this.index = index;
    const post = (message: ToPrimary): void => this.#port.postMessage(message);
    // A committed write anywhere is numbered by the primary and announced to every worker (`version`).
    this.changeFeed = new (class extends ChangeFeed {
      override bump(): void {
        post({ t: 'bump' });
      }
    })({ epoch });
    this.uptime = {
      probes: index === 0,
      publish: (hosts) => post({ t: 'downHosts', hosts }),
      follow: (listener) => (this.#hostsDown = listener),
    };
    const ask = async (op: 'lockedFor' | 'admit', who: { user: string; client: string }): Promise<number> => {
      const answer = await this.#request((id) => ({ t: 'lockout', id, op, user: who.user, client: who.client }));
      return answer.t === 'lockout' ? answer.waitMs : 0;
    };
    this.lockouts = {
      lockedFor: (who) => ask('lockedFor', who),
      admit: (who) => ask('admit', who),
      settle: (who, outcome) => post({ t: 'lockoutSettle', user: who.user, client: who.client, outcome }),
    };
    const relay = new StreamRelayBatch({
      post: (messages) => post({ t: 'streamMessages', messages }),
      request: async (messages) => void (await this.#request((id) => ({ t: 'streamMessages', id, messages }))),
    });
    this.streams = {
      consumes: index === 0,
      relay: (key, hash, message, sequenced) => relay.add(key, hash, message, sequenced),
      follow: (listener) => (this.#streamMessage = listener),
    };
  }

  /** Stream messages (any worker's, this one's too) for this worker's subscribers, relayed by the primary in order. */
  streamsRelayed(messages: StreamRelayed[]): void {
    for (const { key, hash, message } of messages) this.#streamMessage(key, hash, Buffer.from(message.buffer, message.byteOffset, message.byteLength));
  }

  /** The hosts worker 0 has down, relayed by the primary. */
  hostsDown(hosts: string[]): void {
    this.#hostsDown(hosts);
  }

  post(message: ToPrimary): void {
    this.#port.postMessage(message);
  }

  /** The primary's answer to a request of ours; false when the message is not an answer. */
  answered(message: ToWorker): boolean {
    if (!('id' in message) || message.t === 'apply' || message.t === 'collectMetrics') return false;
    const pending = this.#pending.get(message.id);
    if (!pending) return false;
    this.#pending.delete(message.id);
    pending.resolve(message);
    return true;
  }

  readonly storeCall = async (method: string, args: unknown[]): Promise<unknown> => {
    const answer = await this.#request((id) => ({ t: 'store', id, method, args }));
    if (answer.t === 'store' && answer.error) throw deserializeError(answer.error);
    return answer.t === 'store' ? answer.value : undefined;
  };

  async reloadAll(): Promise<void> {
    const answer = await this.#request((id) => ({ t: 'reload', id }));
    const error = (answer as { error?: SerializedError }).error;
    if (error) throw deserializeError(error);
  }

  async broadcast(change: Broadcast): Promise<void> {
    await this.#request((id) => ({ t: 'broadcast', id, change }));
  }

  async metrics(): Promise<{ text: string; contentType: string }> {
    const answer = await this.#request((id) => ({ t: 'metrics', id }));
    return answer.t === 'metrics' ? { text: answer.text, contentType: answer.contentType } : { text: '', contentType: 'text/plain' };
  }

  #request(message: (id: number) => ToPrimary): Promise<Answer> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, { resolve });
      this.#port.postMessage(message(id));
    });
  }
}
