// AMQP 0-9-1 (RabbitMQ) connector (amqplib with its connection recovery): output = publish on a confirm channel to
// an exchange with a routing key, resolved on the broker's confirm; input = consume a queue with manual acks, each
// message acked only after it was delivered onward (nacked and requeued when that failed), prefetch-bounded.
// Topology (exchange, queue, bindings) is declared when asked to, after every (re)connect. A message in flight
// when the connection drops is redelivered by the broker: the input is at least once.
import { connect, type Channel, type ChannelModel, type ConfirmChannel, type RecoveringChannelModel } from 'amqplib';
import type { AmqpInputConfig, AmqpOutputConfig } from '../../domain/streaming.ts';
import { PUBLISH_TIMEOUT_MS, RECONNECT_MAX_MS, RECONNECT_MIN_MS, withTimeout, type BrokerSink, type BrokerSource, type ConnectorLog } from './broker.ts';

/** Pause before a message whose delivery failed is handed back to the broker for redelivery. */
const REQUEUE_DELAY_MS = 1_000;

function recovering(urls: string[], log: ConnectorLog, setup: (model: ChannelModel) => Promise<void>): Promise<RecoveringChannelModel> {
  const opened = connect(urls[0]!, {
    recovery: { initialDelay: RECONNECT_MIN_MS, maxDelay: RECONNECT_MAX_MS, maxRetries: Infinity, waitForConnect: false, setup },
  });
  void opened.then((model) => {
    model.on('disconnect', (error: Error) => log.info({ broker: 'amqp', err: error.message }, 'amqp disconnected; reconnecting'));
    model.on('error', (error: Error) => log.warn({ broker: 'amqp', err: error.message }, 'amqp connection error'));
  });
  return opened;
}

export class AmqpSink implements BrokerSink {
  readonly #model: Promise<RecoveringChannelModel>;
  #channel: ConfirmChannel | undefined;
  #ready: Promise<void>;
  #markReady!: () => void;

  constructor(config: AmqpOutputConfig, log: ConnectorLog) {
    this.#ready = new Promise((resolve) => (this.#markReady = resolve));
    this.#model = recovering(config.urls, log, async (model) => {
      const channel = await model.createConfirmChannel();
      channel.on('error', (error: Error) => log.warn({ broker: 'amqp', err: error.message }, 'amqp channel error'));
      channel.on('close', () => {
        if (this.#channel === channel) {
          this.#channel = undefined;
          this.#ready = new Promise((resolve) => (this.#markReady = resolve));
        }
      });
      if (config.exchange_declare?.enabled && config.exchange !== '')
        await channel.assertExchange(config.exchange, config.exchange_declare.type, { durable: config.exchange_declare.durable });
      this.#channel = channel;
      this.#markReady();
    });
    this.#config = config;
  }

  readonly #config: AmqpOutputConfig;

  async publish(message: Buffer): Promise<void> {
    const send = async (): Promise<void> => {
      while (!this.#channel) await this.#ready;
      const channel = this.#channel;
      await new Promise<void>((resolve, reject) => {
        channel.publish(this.#config.exchange, this.#config.key, message, { persistent: this.#config.persistent }, (error) =>
          error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(),
        );
      });
    };
    await withTimeout(send(), PUBLISH_TIMEOUT_MS, 'amqp publish');
  }

  async close(): Promise<void> {
    const model = await this.#model.catch(() => undefined);
    await model?.close().catch(() => undefined);
  }
}

export class AmqpSource implements BrokerSource {
  readonly #config: AmqpInputConfig;
  readonly #log: ConnectorLog;
  #model: Promise<RecoveringChannelModel> | undefined;

  constructor(config: AmqpInputConfig, log: ConnectorLog) {
    this.#config = config;
    this.#log = log;
  }

  consume(deliver: (message: Buffer) => Promise<void>): void {
    const config = this.#config;
    this.#model = recovering(config.urls, this.#log, async (model) => {
      const channel: Channel = await model.createChannel();
      channel.on('error', (error: Error) => this.#log.warn({ broker: 'amqp', err: error.message }, 'amqp channel error'));
      if (config.queue_declare?.enabled) await channel.assertQueue(config.queue, { durable: config.queue_declare.durable });
      for (const binding of config.bindings_declare) await channel.bindQueue(config.queue, binding.exchange, binding.key);
      await channel.prefetch(config.prefetch_count);
      // Messages are handed on one at a time, in queue order, each acked after it was delivered.
      let chain = Promise.resolve();
      await channel.consume(config.queue, (message) => {
        if (!message) return;
        chain = chain
          .then(() =>
            deliver(message.content).then(
              () => channel.ack(message),
              // Requeued after a pause, so an output that fails at once is not retried in a tight loop.
              () => new Promise((resolve) => setTimeout(resolve, REQUEUE_DELAY_MS)).then(() => channel.nack(message, false, true)),
            ),
          )
          .catch(() => undefined);
      });
    });
    this.#model.catch((error: unknown) => this.#log.warn({ broker: 'amqp', err: (error as Error).message }, 'amqp consumer failed'));
  }

  async close(): Promise<void> {
    const model = await this.#model?.catch(() => undefined);
    await model?.close().catch(() => undefined);
  }
}
