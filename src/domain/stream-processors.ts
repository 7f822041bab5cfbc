// The processing step of a stream (`x-gw-streaming.streams.<id>.pipeline.processors[]`): the processors gw runs,
// under Bento's own names with Bento's fields and defaults, and their check at load (shared by the gateway and the
// operator through api/streaming.ts). Only processors gw can run faithfully are here; a Bloblang `mapping` /
// `bloblang` (no JavaScript implementation exists) or any other name is refused naming its field. Running them is
// the gateway's (gateway/streams/processors.ts); this file never touches a message.
import { z } from 'zod';

/** Bento `jmespath`: the message (JSON) is replaced by the query's result, as JSON. */
const Jmespath = z.strictObject({ query: z.string().min(1) });
/** Bento `bounds_check`: a message outside these bounds is dropped (a gw message is a batch of one part). */
const BoundsCheck = z.strictObject({
  max_part_size: z.number().int().nonnegative().default(1073741824),
  min_part_size: z.number().int().nonnegative().default(1),
  max_parts: z.number().int().nonnegative().default(100),
  min_parts: z.number().int().nonnegative().default(1),
});
/** Bento `log`: one log line per message at `level` with a fixed `message`; the message's contents are never logged. */
const Log = z.strictObject({
  level: z.enum(['FATAL', 'ERROR', 'WARN', 'INFO', 'DEBUG', 'TRACE', 'ALL']).default('INFO'),
  message: z
    .string()
    .refine((text) => !text.includes('${!'), 'interpolation functions (${! ... }) are Bloblang: not supported')
    .default(''),
});

/** Bento `noop`: the message unchanged (`noop: {}`, or `noop:` with no value in YAML). */
const Noop = z
  .strictObject({})
  .or(z.null())
  .transform(() => ({}));

/** The processors gw runs, by Bento name: each one's fields. */
const PROCESSOR_FIELDS = { noop: Noop, jmespath: Jmespath, bounds_check: BoundsCheck, log: Log } as const;
const Processor = z.union([
  z.strictObject({ noop: Noop }),
  z.strictObject({ jmespath: Jmespath }),
  z.strictObject({ bounds_check: BoundsCheck }),
  z.strictObject({ log: Log }),
]);

export const STREAM_PROCESSORS: readonly string[] = Object.keys(PROCESSOR_FIELDS);
/** Bento processors written in Bloblang, which has no JavaScript implementation. */
const BLOBLANG_PROCESSORS = new Set(['mapping', 'bloblang', 'mutation', 'branch', 'workflow', 'switch']);

export const Pipeline = z.strictObject({ processors: z.array(Processor).default([]) });

export type ProcessorConfig = z.infer<typeof Processor>;

/** Checks the api layer cannot make itself (it imports only zod): given by the gateway and the operator alike. */
export interface StreamingChecks {
  /** Why a JMESPath query cannot run, or undefined (jmespath/query.ts: jmespathQueryProblem). */
  jmespathQuery(query: string): string | undefined;
}

/**
 * The first problem of one stream's `pipeline`, worded by field (the schema's union alone would only say that no
 * processor matched): a processor gw does not run, one entry naming several processors, a processor's own fields,
 * or a jmespath query that does not parse (`checks.jmespathQuery`). `where` is the pipeline's field
 * (`x-gw-streaming.streams.<id>.pipeline`).
 */
export function pipelineProblem(pipeline: unknown, where: string, checks: StreamingChecks): string | undefined {
  const processors = (pipeline as { processors?: unknown } | null | undefined)?.processors;
  if (!Array.isArray(processors)) return undefined;
  for (const [index, processor] of (processors as unknown[]).entries()) {
    const field = `${where}.processors[${index}]`;
    if (typeof processor !== 'object' || processor === null) return `${field}: must be an object naming one processor`;
    const names = Object.keys(processor);
    const unknown = names.find((name) => !STREAM_PROCESSORS.includes(name));
    if (unknown) {
      const why = BLOBLANG_PROCESSORS.has(unknown) ? `${unknown} is not supported: Bloblang has no JavaScript implementation` : `${unknown} is not supported`;
      return `${field}: ${why} (processors gw runs: ${STREAM_PROCESSORS.join(', ')})`;
    }
    if (names.length !== 1) return `${field}: must name exactly one processor (${STREAM_PROCESSORS.join(', ')})`;
    const name = names[0] as keyof typeof PROCESSOR_FIELDS;
    const fields = PROCESSOR_FIELDS[name].safeParse((processor as Record<string, unknown>)[name]);
    if (!fields.success) {
      const issue = fields.error.issues[0]!;
      return `${[`${field}.${name}`, ...issue.path.map(String)].join('.')}: ${issue.message}`;
    }
    const query = (processor as { jmespath?: { query?: unknown } }).jmespath?.query;
    if (typeof query === 'string' && query.length > 0) {
      const error = checks.jmespathQuery(query);
      if (error) return `${field}.jmespath.query: not a JMESPath query: ${error}`;
    }
  }
  return undefined;
}
