// The streams extension of an OAS API document (`x-gw-streaming`, Tyk's `x-tyk-streaming`): named streams,
// each with one input, optional processors and one output, in Tyk's (Bento's) field names, limited to the
// components gw runs (HTTP publish/subscribe, Redis Streams, NATS, AMQP 0-9-1) and the processors of
// api/stream-processors.ts. Schema and its check
// (parseStreamingExtension, shared by the gateway and the operator); the gateway compiles
// it (gateway/definition/streams.ts). A component gw cannot run is refused naming its field (Tyk silently
// strips unknown components).
import { z } from 'zod';
import { Pipeline, pipelineProblem, type StreamingChecks } from './stream-processors.ts';

export const STREAMS_EXTENSION = 'x-gw-streaming';

const Urls = z.array(z.string().min(1)).min(1);
const Path = z.string().regex(/^\/[^?#]*$/, 'must start with / and carry no query');

/** input.http_server: POST (allowed_verbs) to `path` publishes the body as one message. */
const HttpServerInput = z.strictObject({ path: Path.default('/post'), allowed_verbs: z.array(z.string()).min(1).default(['POST']) });
/** output.http_server: subscribers on `stream_path` (SSE or newline-separated bytes) and `ws_path` (WebSocket). */
const HttpServerOutput = z.strictObject({
  stream_path: Path.optional(),
  ws_path: Path.optional(),
  stream_format: z.enum(['event_source', 'raw_bytes']).default('event_source'),
  /** gw: bytes one subscriber may have queued (not yet taken by its connection) before it is disconnected. */
  max_buffer_bytes: z
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  /** gw: subscribers of this output at once; more are refused with 503. */
  max_subscribers: z.number().int().positive().default(10_000),
});
/**
 * Bento's `body_key`: the entry field holding the message (Bento's default `body`). Left out, an input also reads
 * the field `message` of an entry without `body` (what gw wrote before it took `body_key`), so entries already in a
 * stream are still delivered after an upgrade (streams/redis-streams.ts).
 */
const BodyKey = z.string().min(1).optional();
const RedisStreamsInput = z.strictObject({
  url: z.string().min(1),
  streams: z.array(z.string().min(1)).length(1, 'exactly one stream per input is supported'),
  body_key: BodyKey,
});
const RedisStreamsOutput = z.strictObject({
  url: z.string().min(1),
  stream: z.string().min(1),
  max_length: z.number().int().nonnegative().default(0),
  body_key: BodyKey,
});
const NatsInput = z.strictObject({ urls: Urls, subject: z.string().min(1), queue: z.string().optional() });
const NatsOutput = z.strictObject({ urls: Urls, subject: z.string().min(1) });
const AmqpInput = z.strictObject({
  urls: Urls,
  queue: z.string().min(1),
  queue_declare: z.strictObject({ enabled: z.boolean(), durable: z.boolean().default(true) }).optional(),
  bindings_declare: z.array(z.strictObject({ exchange: z.string(), key: z.string().default('') })).default([]),
  prefetch_count: z.number().int().positive().default(10),
});
const AmqpOutput = z.strictObject({
  urls: Urls,
  exchange: z.string(),
  key: z.string().default(''),
  exchange_declare: z
    .strictObject({ enabled: z.boolean(), type: z.enum(['direct', 'fanout', 'topic']).default('direct'), durable: z.boolean().default(true) })
    .optional(),
  persistent: z.boolean().default(false),
});

/** The input and output components gw runs. */
export const STREAM_COMPONENTS: readonly string[] = ['http_server', 'redis_streams', 'nats', 'amqp_0_9'];

const Input = z.union([
  z.strictObject({ http_server: HttpServerInput }),
  z.strictObject({ redis_streams: RedisStreamsInput }),
  z.strictObject({ nats: NatsInput }),
  z.strictObject({ amqp_0_9: AmqpInput }),
]);
const Output = z.union([
  z.strictObject({ http_server: HttpServerOutput }),
  z.strictObject({ redis_streams: RedisStreamsOutput }),
  z.strictObject({ nats: NatsOutput }),
  z.strictObject({ amqp_0_9: AmqpOutput }),
]);
const StreamConfig = z.looseObject({ input: Input, pipeline: Pipeline.optional(), output: Output });
export const StreamingExtension = z.looseObject({
  streams: z.record(z.string().regex(/^[A-Za-z0-9._~-]{1,128}$/, 'stream ids are 1-128 characters of A-Z a-z 0-9 . _ ~ -'), StreamConfig),
});

export type StreamingExtensionConfig = z.infer<typeof StreamingExtension>;

/**
 * An x-gw-streaming value checked, for the gateway (at compile) and the operator (before a write) alike: its config,
 * or its first problem worded `x-gw-streaming.<field>: <what>`. A component gw does not run is named with the ones
 * it does (the schema alone would only say that no input or output matched). `checks` are the ones api cannot
 * make (a JMESPath query's syntax): both callers pass jmespath/query.ts's.
 */
export function parseStreamingExtension(extension: unknown, checks: StreamingChecks): { config: StreamingExtensionConfig } | { problem: string } {
  const streams = (extension as { streams?: unknown } | undefined)?.streams;
  if (typeof streams === 'object' && streams !== null) {
    for (const [id, config] of Object.entries(streams)) {
      for (const side of ['input', 'output'] as const) {
        const component = (config as Record<string, unknown> | null)?.[side];
        if (typeof component !== 'object' || component === null) continue;
        const names = Object.keys(component);
        const unknown = names.find((name) => !STREAM_COMPONENTS.includes(name));
        if (unknown || names.length !== 1) {
          return {
            problem: `${STREAMS_EXTENSION}.streams.${id}.${side}: ${unknown ? `${unknown} is not a component gw runs` : 'must name exactly one component'} (${STREAM_COMPONENTS.join(', ')})`,
          };
        }
      }
      const problem = pipelineProblem((config as Record<string, unknown> | null)?.pipeline, `${STREAMS_EXTENSION}.streams.${id}.pipeline`, checks);
      if (problem) return { problem };
    }
  }
  const parsed = StreamingExtension.safeParse(extension);
  if (parsed.success) return { config: parsed.data };
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
  return { problem: `${STREAMS_EXTENSION}${field}: ${issue.message}` };
}

export type HttpServerInputConfig = z.infer<typeof HttpServerInput>;
export type HttpServerOutputConfig = z.infer<typeof HttpServerOutput>;
export type RedisStreamsInputConfig = z.infer<typeof RedisStreamsInput>;
export type RedisStreamsOutputConfig = z.infer<typeof RedisStreamsOutput>;
export type NatsInputConfig = z.infer<typeof NatsInput>;
export type NatsOutputConfig = z.infer<typeof NatsOutput>;
export type AmqpInputConfig = z.infer<typeof AmqpInput>;
export type AmqpOutputConfig = z.infer<typeof AmqpOutput>;
export type InputConfig = z.infer<typeof Input>;
export type OutputConfig = z.infer<typeof Output>;
