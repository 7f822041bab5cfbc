// Redis Streams connector (ioredis): output = XADD to one stream (MAXLEN ~ when max_length > 0), the XADDs of one
// event-loop turn sent in one socket write (each publish answered by its own XADD's reply); input = XREAD
// BLOCK from the newest entry at start, then from the last id delivered, on its own connection. The last id is
// kept across reconnects, so entries added while the gateway was disconnected (and still in the stream) are
// delivered after it reconnects; a restarted gateway starts again at the newest entry. No consumer group: every
// gateway delivers every entry to its own subscribers (fan-out), at most once per gateway.
// The message is the entry's field `body_key` (Bento's, default `body`), so a stream is shared with Bento (Tyk
// Streams) producers and consumers. An input whose body_key is left out also takes the field `message` of an entry
// without `body`: the field gw wrote before, so entries written by an older gw still arrive.
import { Redis, type Pipeline } from 'ioredis';
import type { RedisStreamsInputConfig, RedisStreamsOutputConfig } from '../../domain/streaming.ts';
import { PUBLISH_TIMEOUT_MS, RECONNECT_MAX_MS, RECONNECT_MIN_MS, TurnQueue, type BrokerSink, type BrokerSource, type ConnectorLog } from './broker.ts';
import { PublishDeadline } from './publish-deadline.ts';
import { XaddCommand, xaddHead } from './redis-xadd.ts';

/** Bento's default body_key. */
export const DEFAULT_BODY_KEY = 'body';
/** The field gw wrote before it took body_key: still read by an input whose body_key is left out. */
const LEGACY_BODY_KEY = 'message';
const BLOCK_MS = 1_000;
const READ_COUNT = 100;

function connect(url: string, log: ConnectorLog, blocking: boolean): Redis {
  const client = new Redis(url, {
    lazyConnect: false,
    // Commands sent while the broker is down wait in the offline queue, bounded by the publish timeout.
    maxRetriesPerRequest: blocking ? null : 20,
    retryStrategy: (times) => Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** Math.min(times, 6)),
  });
  client.on('error', (error: Error) => log.warn({ broker: 'redis', err: error.message }, 'redis connection error'));
  return client;
}

export class RedisStreamsSink implements BrokerSink {
  readonly #client: Redis;
  /** The XADD's RESP up to the message (redis-xadd.ts), encoded once. */
  readonly #head: Buffer;
  readonly #turn = new TurnQueue<XaddCommand>((commands) => this.#send(commands));
  readonly #deadline = new PublishDeadline<XaddCommand>(PUBLISH_TIMEOUT_MS, 'redis XADD');

  constructor(config: RedisStreamsOutputConfig, log: ConnectorLog) {
    this.#head = xaddHead(config.stream, config.max_length, config.body_key ?? DEFAULT_BODY_KEY);
    this.#client = connect(config.url, log, false);
  }

  /** Settles with the message's own XADD reply: its entry id, or the error Redis (or the bounded wait) gave. */
  publish(message: Buffer): Promise<void> {
    const command = new XaddCommand(this.#head, message);
    this.#turn.add(command);
    return command.promise;
  }

  /**
   * The XADDs of one turn, in order, in one socket write; each message's outcome is its own command's reply.
   * Connected: each XADD sent on its own into the corked socket (one writev when uncorked), which costs about
   * half the CPU per message of an ioredis pipeline (no Pipeline, no per-pipeline result array, no concatenation
   * of the commands into one buffer). Not connected yet (or reconnecting): one pipeline, which ioredis keeps in its
   * offline queue and writes in one piece once connected.
   */
  #send(commands: XaddCommand[]): void {
    this.#deadline.watch(commands);
    const client = this.#client;
    if (client.status !== 'ready') {
      // client.pipeline() is typed for chaining; the object is a Pipeline, whose sendCommand queues a command.
      const pipeline = client.pipeline() as unknown as Pipeline;
      for (const command of commands) pipeline.sendCommand(command);
      // Each command settles with its own reply; a pipeline refused whole leaves none of them waiting.
      pipeline.exec().catch((error: unknown) => {
        for (const command of commands) command.reject(error instanceof Error ? error : new Error(String(error)));
      });
      return;
    }
    client.stream.cork();
    try {
      for (const command of commands) void client.sendCommand(command);
    } finally {
      client.stream.uncork();
    }
  }

  async close(): Promise<void> {
    this.#deadline.stop();
    this.#client.disconnect();
  }
}

export class RedisStreamsSource implements BrokerSource {
  readonly #client: Redis;
  readonly #stream: string;
  readonly #log: ConnectorLog;
  /** Fields read, in order: body_key, then (body_key left out) the legacy `message`; as bytes, compared as read. */
  readonly #bodyKeys: readonly Buffer[];
  #closed = false;

  constructor(config: RedisStreamsInputConfig, log: ConnectorLog) {
    this.#stream = config.streams[0]!;
    this.#bodyKeys = (config.body_key === undefined ? [DEFAULT_BODY_KEY, LEGACY_BODY_KEY] : [config.body_key]).map((name) => Buffer.from(name));
    this.#log = log;
    this.#client = connect(config.url, log, true);
  }

  consume(deliver: (message: Buffer) => Promise<void>): void {
    void this.#loop(deliver);
  }

  async #loop(deliver: (message: Buffer) => Promise<void>): Promise<void> {
    let lastId: string | undefined;
    while (!this.#closed) {
      try {
        // Start at the newest entry once connected (an id read before the first XREAD would race publishers).
        lastId ??= await this.#newestId();
        const reply = await this.#client.xreadBuffer('COUNT', READ_COUNT, 'BLOCK', BLOCK_MS, 'STREAMS', this.#stream, lastId);
        for (const [, entries] of reply ?? []) {
          for (const [id, fields] of entries) {
            lastId = id.toString();
            const message = entryBody(fields, this.#bodyKeys);
            if (message) await deliver(message);
          }
        }
      } catch (error) {
        if (this.#closed) return;
        this.#log.warn({ broker: 'redis', stream: this.#stream, err: (error as Error).message }, 'redis stream read failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, RECONNECT_MIN_MS));
      }
    }
  }

  async #newestId(): Promise<string> {
    const newest = await this.#client.xrevrange(this.#stream, '+', '-', 'COUNT', 1);
    return newest[0]?.[0] ?? '0-0';
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#client.disconnect();
  }
}

/** The value of the first of `names` the entry has (fields: name, value, name, value ...); no field is decoded. */
function entryBody(fields: Buffer[], names: readonly Buffer[]): Buffer | undefined {
  for (const name of names) {
    for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i]!.equals(name)) return fields[i + 1];
  }
  return undefined;
}
