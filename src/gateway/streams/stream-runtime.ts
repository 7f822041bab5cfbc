// One running stream: its input (the HTTP publish endpoint, or a broker consumer started here), the output (the
// subscribers of an http_server output, or a broker publisher) and the delivery between them. Built once per
// stream configuration and kept across reloads while the configuration is unchanged (stream-registry.ts).
//
// Order: messages reach the output in the order the input produced them (a broker input hands them on one at a
// time; HTTP publishes are written to the broker connection in the order their bodies were read). A broker input
// whose message cannot be written to a broker output within the bounded retry drops it, counted in
// gw_stream_messages_dropped_total (an AMQP input nacks and requeues instead).
//
// Processing (processors.ts) runs between input and output, synchronously, so it keeps that order. A message a
// processor filtered (bounds_check) is dropped as delivered (reason filtered: an HTTP publisher gets 200, a broker
// input acks it); a message a processor failed on is dropped (reason processor_error: an HTTP publisher gets the
// ProcessorFailure, a broker input acks it: redelivering would fail again).
//
// On several worker threads (`sharing`), worker 0 alone consumes broker inputs (each message is consumed, processed
// and published once per gateway, and a queue group or AMQP queue is not split between workers), and a message for
// subscribers, whichever worker took it (a broker input, an HTTP publish), goes through the primary to every
// worker's subscribers, this worker's too: one order for all of them, the order the primary received them in.
import type { Logger } from 'pino';
import type { GatewayMetrics } from '../metrics.ts';
import { AmqpSink, AmqpSource } from './amqp.ts';
import type { BrokerSink, BrokerSource, ConnectorLog } from './broker.ts';
import { NatsSink, NatsSource } from './nats.ts';
import { compilePipeline, ProcessorFailure, type Processed } from './processors.ts';
import { RedisStreamsSink, RedisStreamsSource } from './redis-streams.ts';
import type { HttpServerInputConfig, HttpServerOutputConfig, InputConfig, OutputConfig } from '../../domain/streaming.ts';
import type { StreamSpec } from '../definition/api-spec.ts';
import { SubscriberSet, type CloseReason } from './subscribers.ts';

/** How the stream runtimes of a gateway's worker threads work as one (workers/worker-link.ts). */
export interface StreamSharing {
  /** This worker consumes the broker inputs; the others consume nothing (a queue shared by N would split them). */
  readonly consumes: boolean;
  /**
   * A message for subscribers: to every worker's subscribers of the stream (this worker's come back through follow).
   * With `sequenced`, resolves once the primary has put it in the one order every worker's subscribers see; a
   * client's publish waits for that before its answer, so a later publish on another worker cannot overtake it.
   * A broker's messages come from one worker in order and need not wait.
   */
  relay(key: string, hash: string, message: Buffer, sequenced: boolean): Promise<void>;
  /** A message (any worker's, this one's too) for this worker's subscribers of the stream. */
  follow(listener: (key: string, hash: string, message: Buffer) => void): void;
}

export class StreamRuntime {
  readonly definition: StreamSpec;
  /** The publish endpoint, when the input is http_server. */
  readonly httpInput: HttpServerInputConfig | undefined;
  /** The subscriber endpoints, when the output is http_server. */
  readonly httpOutput: HttpServerOutputConfig | undefined;
  readonly subscribers: SubscriberSet | undefined;
  readonly #sink: BrokerSink | undefined;
  readonly #source: BrokerSource | undefined;
  readonly #metrics: GatewayMetrics;
  readonly #log: Logger;
  readonly #process: (message: Buffer) => Processed;
  readonly #sharing: StreamSharing | undefined;
  /** Counts one message written to the output (gw_stream_messages_total; the series looked up once). */
  readonly #countMessage: () => void;

  constructor(definition: StreamSpec, metrics: GatewayMetrics, log: Logger, sharing?: StreamSharing) {
    this.#sharing = sharing;
    this.definition = definition;
    this.#metrics = metrics;
    this.#countMessage = metrics.streamMessageCounter(definition.apiId, definition.streamId);
    this.#log = log.child({ api_id: definition.apiId, stream: definition.streamId });
    this.#process = compilePipeline(definition.processors, this.#log);
    const { input, output } = definition;
    this.httpInput = 'http_server' in input ? input.http_server : undefined;
    if ('http_server' in output) {
      this.httpOutput = output.http_server;
      this.subscribers = new SubscriberSet(output.http_server.max_buffer_bytes, output.http_server.max_subscribers, () =>
        metrics.streamSubscriberClosed(definition.apiId, definition.streamId, 'slow_subscriber'),
      );
    } else this.#sink = brokerSink(output, this.#log);
    this.#source = sharing && !sharing.consumes ? undefined : brokerSource(input, this.#log);
    this.#source?.consume((message) => this.#fromBroker(message));
  }

  /**
   * Processes one message and writes it to the output: resolves once a broker has it, once it is in the order
   * every subscriber sees (at once on a single worker) or when a processor filtered it; rejects with a
   * ProcessorFailure when a processor failed on it (counted here). `from`: a client's publish or a broker input's.
   */
  publish(input: Buffer, from: 'client' | 'broker' = 'client'): Promise<void> {
    const processed = this.#process(input);
    const { apiId, streamId } = this.definition;
    if (processed.outcome === 'filtered') {
      this.#metrics.streamDropped(apiId, streamId, 'filtered');
      return Promise.resolve();
    }
    if (processed.outcome === 'failed') {
      this.#metrics.streamDropped(apiId, streamId, 'processor_error');
      this.#log.warn({ code: processed.failure.code, err: processed.failure.message }, 'stream message dropped: a processor failed on it');
      return Promise.reject(processed.failure);
    }
    this.#countMessage();
    if (this.subscribers) {
      if (this.#sharing) return this.#sharing.relay(this.definition.key, this.definition.hash, processed.message, from === 'client');
      this.subscribers.broadcast(processed.message);
      return Promise.resolve();
    }
    return this.#sink!.publish(processed.message);
  }

  /**
   * A broker input's message: on to the output. When a broker output cannot take it, an AMQP input gets the error
   * (it nacks and the broker redelivers); any other input drops the message, counted.
   */
  async #fromBroker(message: Buffer): Promise<void> {
    try {
      await this.publish(message, 'broker');
    } catch (error) {
      if (error instanceof ProcessorFailure) return; // counted and logged by publish
      if ('amqp_0_9' in this.definition.input) {
        this.#log.warn({ err: (error as Error).message }, 'stream message requeued: the output broker did not take it');
        throw error;
      }
      this.#metrics.streamDropped(this.definition.apiId, this.definition.streamId, 'output_unavailable');
      this.#log.warn({ err: (error as Error).message }, 'stream message dropped: the output broker did not take it');
    }
  }

  async stop(reason: CloseReason): Promise<void> {
    this.subscribers?.closeAll(reason);
    await Promise.all([this.#source?.close(), this.#sink?.close()]);
  }
}

function brokerSink(output: OutputConfig, log: ConnectorLog): BrokerSink | undefined {
  if ('redis_streams' in output) return new RedisStreamsSink(output.redis_streams, log);
  if ('nats' in output) return new NatsSink(output.nats, log);
  if ('amqp_0_9' in output) return new AmqpSink(output.amqp_0_9, log);
  return undefined;
}

function brokerSource(input: InputConfig, log: ConnectorLog): BrokerSource | undefined {
  if ('redis_streams' in input) return new RedisStreamsSource(input.redis_streams, log);
  if ('nats' in input) return new NatsSource(input.nats, log);
  if ('amqp_0_9' in input) return new AmqpSource(input.amqp_0_9, log);
  return undefined;
}
