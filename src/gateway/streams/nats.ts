// NATS (core) connector (the `nats` client): output = publish to a subject, confirmed by a flush (the server has
// it; the publishes of one event-loop turn share one flush: its PING follows all of them, so its PONG confirms
// each); input = a subscription (a queue group when `queue` is set). Core NATS has no acknowledgements: a message
// published while no gateway is subscribed, or while the gateway is reconnecting, is not delivered (at most once).
// The client reconnects forever (capped wait) and buffers publishes made while disconnected (bounded by the
// client's reconnect buffer and PUBLISH_TIMEOUT_MS).
import { connect, Events, type NatsConnection, type Subscription } from 'nats';
import type { NatsInputConfig, NatsOutputConfig } from '../../domain/streaming.ts';
import { PUBLISH_TIMEOUT_MS, RECONNECT_MAX_MS, TickBatch, withTimeout, type BrokerSink, type BrokerSource, type ConnectorLog } from './broker.ts';

/**
 * One NATS connection that may still be waiting for its first connect (waitOnFirstConnect): closing it never waits
 * for a server that is down (a reload or shutdown would hang); a connection that arrives after close is closed.
 */
class NatsHandle {
  readonly connection: Promise<NatsConnection>;
  #open: NatsConnection | undefined;
  #closed = false;

  constructor(urls: string[], log: ConnectorLog) {
    this.connection = connect({
      servers: urls,
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: RECONNECT_MAX_MS / 5,
      waitOnFirstConnect: true,
      pingInterval: 5_000,
    });
    void this.connection.then(
      async (nc) => {
        if (this.#closed) return nc.close();
        this.#open = nc;
        for await (const status of nc.status()) {
          if (status.type === Events.Disconnect || status.type === Events.Reconnect) log.info({ broker: 'nats', status: status.type }, `nats ${status.type}`);
        }
      },
      (error: unknown) => log.warn({ broker: 'nats', err: (error as Error).message }, 'nats connection failed'),
    );
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Closes the connection if it is open; one still connecting is closed when it connects. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#open?.close();
  }
}

export class NatsSink implements BrokerSink {
  readonly #handle: NatsHandle;
  readonly #subject: string;
  readonly #batch = new TickBatch<Buffer>((messages) => withTimeout(this.#publishAll(messages), PUBLISH_TIMEOUT_MS, 'nats publish'));

  constructor(config: NatsOutputConfig, log: ConnectorLog) {
    this.#subject = config.subject;
    this.#handle = new NatsHandle(config.urls, log);
  }

  publish(message: Buffer): Promise<void> {
    return this.#batch.add(message);
  }

  /** Publishes every message in order, then one flush: its PONG confirms them all (a failure fails them all). */
  async #publishAll(messages: Buffer[]): Promise<undefined[]> {
    const nc = await this.#handle.connection;
    for (const message of messages) nc.publish(this.#subject, message);
    await nc.flush();
    return [];
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
