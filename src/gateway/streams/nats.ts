// NATS (core) connector (the `nats` client): output = publish to a subject, confirmed by a flush (the server has
// it); input = a subscription (a queue group when `queue` is set). Core NATS has no acknowledgements: a message
// published while no gateway is subscribed, or while the gateway is reconnecting, is not delivered (at most once).
// The client reconnects forever (capped wait) and buffers publishes made while disconnected (bounded by the
// client's reconnect buffer and PUBLISH_TIMEOUT_MS).
import { connect, Events, type NatsConnection, type Subscription } from 'nats';
import type { NatsInputConfig, NatsOutputConfig } from '../../api/streaming.ts';
import { PUBLISH_TIMEOUT_MS, RECONNECT_MAX_MS, withTimeout, type BrokerSink, type BrokerSource, type ConnectorLog } from './broker.ts';

function open(urls: string[], log: ConnectorLog): Promise<NatsConnection> {
  const connection = connect({ servers: urls, reconnect: true, maxReconnectAttempts: -1, reconnectTimeWait: RECONNECT_MAX_MS / 5, waitOnFirstConnect: true, pingInterval: 5_000 });
  void connection.then(
    async (nc) => {
      for await (const status of nc.status()) {
        if (status.type === Events.Disconnect || status.type === Events.Reconnect) log.info({ broker: 'nats', status: status.type }, `nats ${status.type}`);
      }
    },
    (error: unknown) => log.warn({ broker: 'nats', err: (error as Error).message }, 'nats connection failed'),
  );
  return connection;
}

export class NatsSink implements BrokerSink {
  readonly #connection: Promise<NatsConnection>;
  readonly #subject: string;

  constructor(config: NatsOutputConfig, log: ConnectorLog) {
    this.#subject = config.subject;
    this.#connection = open(config.urls, log);
  }

  async publish(message: Buffer): Promise<void> {
    const send = async (): Promise<void> => {
      const nc = await this.#connection;
      nc.publish(this.#subject, message);
      await nc.flush();
    };
    await withTimeout(send(), PUBLISH_TIMEOUT_MS, 'nats publish');
  }

  async close(): Promise<void> {
    const nc = await this.#connection.catch(() => undefined);
    await nc?.close();
  }
}

export class NatsSource implements BrokerSource {
  readonly #connection: Promise<NatsConnection>;
  readonly #config: NatsInputConfig;
  readonly #log: ConnectorLog;
  #subscription: Subscription | undefined;
  #closed = false;

  constructor(config: NatsInputConfig, log: ConnectorLog) {
    this.#config = config;
    this.#log = log;
    this.#connection = open(config.urls, log);
  }

  consume(deliver: (message: Buffer) => Promise<void>): void {
    void this.#connection.then(async (nc) => {
      if (this.#closed) return;
      this.#subscription = nc.subscribe(this.#config.subject, this.#config.queue ? { queue: this.#config.queue } : {});
      for await (const message of this.#subscription) {
        try {
          await deliver(Buffer.from(message.data));
        } catch (error) {
          this.#log.warn({ broker: 'nats', err: (error as Error).message }, 'nats message not delivered');
        }
      }
    }, () => undefined);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const nc = await this.#connection.catch(() => undefined);
    await nc?.close();
  }
}
