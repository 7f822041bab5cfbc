// NATS (core) connector (the `nats` client): output = publish to a subject, confirmed by a flush (the server has
// it; the publishes of one event-loop turn share one flush: its PING follows all of them, so its PONG confirms
// each); input = a subscription (a queue group when `queue` is set). Core NATS has no acknowledgements: a message
// published while no gateway is subscribed, or while the gateway is reconnecting, is not delivered (at most once).
// The client reconnects forever (capped wait) and buffers publishes made while disconnected (bounded by the
// client's reconnect buffer and PUBLISH_TIMEOUT_MS).
import { setTimeout as sleep } from 'node:timers/promises';
import { connect, Events, type NatsConnection, type Subscription } from 'nats';
import type { NatsInputConfig, NatsOutputConfig } from '../../domain/streaming.ts';
import { PUBLISH_TIMEOUT_MS, RECONNECT_MAX_MS, SharedTurn, withTimeout, type BrokerSink, type BrokerSource, type ConnectorLog } from './broker.ts';

/** Between connect attempts, before the first connect and (the client's reconnectTimeWait) after a disconnect. */
const FIRST_CONNECT_RETRY_MS = RECONNECT_MAX_MS / 5;

/**
 * One NATS connection that may still be waiting for its first connect: closing it never waits for a server that is
 * down (a reload or shutdown would hang), and stops the attempts. The first connect is retried here, every
 * FIRST_CONNECT_RETRY_MS, rather than by the client's waitOnFirstConnect: the client's own dial loop cannot be
 * stopped before it connects, so a stream removed (or a gateway shut down) while its broker was unreachable kept
 * dialing forever, and its timers kept `gw gateway` from exiting on SIGTERM. Once connected, the client reconnects
 * on its own; a connection that arrives after close is closed.
 */
class NatsHandle {
  readonly connection: Promise<NatsConnection>;
  #open: NatsConnection | undefined;
  readonly #closing = new AbortController();

  constructor(urls: string[], log: ConnectorLog) {
    this.connection = this.#dial(urls, log);
    void this.connection.then(
      async (nc) => {
        this.#open = nc;
        for await (const status of nc.status()) {
          if (status.type === Events.Disconnect || status.type === Events.Reconnect) log.info({ broker: 'nats', status: status.type }, `nats ${status.type}`);
        }
      },
      () => undefined, // closed before it connected
    );
  }

  get closed(): boolean {
    return this.#closing.signal.aborted;
  }

  async #dial(urls: string[], log: ConnectorLog): Promise<NatsConnection> {
    for (let attempt = 1; ; attempt++) {
      try {
        const nc = await connect({ servers: urls, reconnect: true, maxReconnectAttempts: -1, reconnectTimeWait: FIRST_CONNECT_RETRY_MS, pingInterval: 5_000 });
        if (!this.closed) return nc;
        await nc.close();
      } catch (error) {
        if (attempt === 1 && !this.closed) log.warn({ broker: 'nats', err: (error as Error).message }, 'nats connection failed; retrying until it connects');
      }
      // Rejects once the handle is closed: no timer is left behind.
      await sleep(FIRST_CONNECT_RETRY_MS, undefined, { signal: this.#closing.signal });
    }
  }

  /** Closes the connection if it is open; one still connecting stops trying. */
  async close(): Promise<void> {
    this.#closing.abort(new Error('nats connection closed'));
    await this.#open?.close();
  }
}

export class NatsSink implements BrokerSink {
  readonly #handle: NatsHandle;
  readonly #subject: string;
  /** A turn's publishes share one outcome: the flush after them confirms (or fails) them all. */
  readonly #turn = new SharedTurn<Buffer>((messages) => withTimeout(this.#publishAll(messages), PUBLISH_TIMEOUT_MS, 'nats publish'));

  constructor(config: NatsOutputConfig, log: ConnectorLog) {
    this.#subject = config.subject;
    this.#handle = new NatsHandle(config.urls, log);
  }

  publish(message: Buffer): Promise<void> {
    return this.#turn.add(message);
  }

  /** Publishes every message in order, then one flush: its PONG confirms them all (a failure fails them all). */
  async #publishAll(messages: Buffer[]): Promise<void> {
    const nc = await this.#handle.connection;
    for (const message of messages) nc.publish(this.#subject, message);
    await nc.flush();
  }

  close(): Promise<void> {
    return this.#handle.close();
  }
}

export class NatsSource implements BrokerSource {
  readonly #handle: NatsHandle;
  readonly #config: NatsInputConfig;
  readonly #log: ConnectorLog;
  #subscription: Subscription | undefined;

  constructor(config: NatsInputConfig, log: ConnectorLog) {
    this.#config = config;
    this.#log = log;
    this.#handle = new NatsHandle(config.urls, log);
  }

  consume(deliver: (message: Buffer) => Promise<void>): void {
    void this.#handle.connection.then(
      async (nc) => {
        if (this.#handle.closed) return;
        this.#subscription = nc.subscribe(this.#config.subject, this.#config.queue ? { queue: this.#config.queue } : {});
        for await (const message of this.#subscription) {
          try {
            await deliver(Buffer.from(message.data));
          } catch (error) {
            this.#log.warn({ broker: 'nats', err: (error as Error).message }, 'nats message not delivered');
          }
        }
      },
      () => undefined,
    );
  }

  close(): Promise<void> {
    return this.#handle.close();
  }
}
