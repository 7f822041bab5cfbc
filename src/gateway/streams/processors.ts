// A stream's processing step: its `pipeline.processors` (api/stream-processors.ts, Bento's names and semantics)
// compiled once per stream into one synchronous function run on every message between input and output. Being
// synchronous, it cannot reorder a stream's messages. Never logs a message's contents.
//
//   noop          the message unchanged
//   jmespath      the message parsed as JSON, replaced by JSON of `query`'s result (null when nothing matched)
//   bounds_check  the message dropped ("filtered") when its size is outside [min_part_size, max_part_size] or
//                 its batch of one part is outside [min_parts, max_parts]
//   log           one log line at `level` with the fixed `message` (and the message's size, never its bytes)
//
// Processing errors (gw's rule, where Bento would flag the message and pass it on unprocessed): the message is NOT
// passed on; the result is a ProcessorFailure naming the processor, which the runtime counts as a drop
// (reason processor_error) and an HTTP publisher gets as 422.
import type { Logger } from 'pino';
import type { ProcessorConfig } from '../../domain/stream-processors.ts';
import { runJmespath } from '../../jmespath/query.ts';

export type Processed = { outcome: 'message'; message: Buffer } | { outcome: 'filtered'; processor: number } | { outcome: 'failed'; failure: ProcessorFailure };

/** A processor could not process a message (e.g. jmespath on a body that is not JSON). */
export class ProcessorFailure extends Error {
  readonly code = 'stream_processor_failed';
  /** The processor's index in pipeline.processors. */
  readonly processor: number;
  constructor(processor: number, name: string, reason: string) {
    super(`pipeline.processors[${processor}] (${name}): ${reason}`);
    this.processor = processor;
  }
}

type Step = (message: Buffer) => Buffer | undefined;

/** The pipeline as one function; with no processors, the identity. */
export function compilePipeline(processors: readonly ProcessorConfig[], log: Logger): (message: Buffer) => Processed {
  const steps = processors.map((processor, index) => ({ name: Object.keys(processor)[0]!, run: compileStep(processor, index, log) }));
  return (message) => {
    let current = message;
    for (const [index, step] of steps.entries()) {
      let next: Buffer | undefined;
      try {
        next = step.run(current);
      } catch (error) {
        return { outcome: 'failed', failure: new ProcessorFailure(index, step.name, (error as Error).message) };
      }
      if (next === undefined) return { outcome: 'filtered', processor: index };
      current = next;
    }
    return { outcome: 'message', message: current };
  };
}

function compileStep(processor: ProcessorConfig, index: number, log: Logger): Step {
  if ('jmespath' in processor) {
    const { query } = processor.jmespath;
    return (message) => {
      let data: unknown;
      try {
        data = JSON.parse(message.toString('utf8'));
      } catch {
        throw new Error('the message is not JSON');
      }
      return Buffer.from(JSON.stringify(runJmespath(query, data)));
    };
  }
  if ('bounds_check' in processor) {
    const { max_part_size, min_part_size, max_parts, min_parts } = processor.bounds_check;
    const partsFit = min_parts <= 1 && max_parts >= 1;
    return (message) => (partsFit && message.length >= min_part_size && message.length <= max_part_size ? message : undefined);
  }
  if ('log' in processor) {
    const { level, message: text } = processor.log;
    const method = LOG_METHODS[level];
    return (message) => {
      log[method]({ processor: index, bytes: message.length }, text);
      return message;
    };
  }
  return (message) => message; // noop
}

const LOG_METHODS = { FATAL: 'fatal', ERROR: 'error', WARN: 'warn', INFO: 'info', DEBUG: 'debug', TRACE: 'trace', ALL: 'trace' } as const;
