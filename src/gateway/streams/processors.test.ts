import pino from 'pino';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Pipeline } from '../../domain/stream-processors.ts';
import { compilePipeline, ProcessorFailure, type Processed } from './processors.ts';

/** A pipeline from its x-gw-streaming form (Bento defaults applied), and the log lines it wrote. */
function pipeline(processors: unknown[]): { run: (message: string) => Processed; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const run = compilePipeline(Pipeline.parse({ processors }).processors, pino({ level: 'trace' }, sink));
  return { run: (message) => run(Buffer.from(message)), lines };
}

const text = (processed: Processed): string => (processed.outcome === 'message' ? processed.message.toString() : `<${processed.outcome}>`);

describe('stream processors', () => {
  it('passes a message through an empty pipeline and noop unchanged', () => {
    expect(text(pipeline([]).run('not json'))).toBe('not json');
    expect(text(pipeline([{ noop: {} }, { noop: null }]).run('not json'))).toBe('not json');
  });

  it('jmespath replaces the message with the query result as JSON, null when nothing matches', () => {
    const { run } = pipeline([{ jmespath: { query: '{id: order.id, skus: order.lines[].sku}' } }]);
    expect(JSON.parse(text(run('{"order":{"id":7,"lines":[{"sku":"a"},{"sku":"b"}],"secret":"x"}}')))).toEqual({ id: 7, skus: ['a', 'b'] });
    expect(text(pipeline([{ jmespath: { query: 'missing' } }]).run('{"a":1}'))).toBe('null');
    expect(text(pipeline([{ jmespath: { query: 'length(items)' } }]).run('{"items":[1,2,3]}'))).toBe('3');
  });

  it('runs processors in order, each on the previous result', () => {
    expect(text(pipeline([{ jmespath: { query: 'a' } }, { jmespath: { query: 'b' } }]).run('{"a":{"b":"deep"}}'))).toBe('"deep"');
  });

  it('fails (not passes on) a message jmespath cannot parse, naming the processor', () => {
    const processed = pipeline([{ noop: {} }, { jmespath: { query: 'a' } }]).run('plain text');
    expect(processed.outcome).toBe('failed');
    const failure = (processed as { failure: ProcessorFailure }).failure;
    expect(failure).toBeInstanceOf(ProcessorFailure);
    expect(failure.processor).toBe(1);
    expect(failure.message).toBe('pipeline.processors[1] (jmespath): the message is not JSON');
  });

  it('fails a message on which the query meets a type error', () => {
    expect(pipeline([{ jmespath: { query: 'length(a)' } }]).run('{"a":1}').outcome).toBe('failed');
  });

  it('bounds_check drops messages outside the part size bounds and keeps the rest', () => {
    const { run } = pipeline([{ bounds_check: { min_part_size: 2, max_part_size: 4 } }]);
    expect(run('a')).toEqual({ outcome: 'filtered', processor: 0 });
    expect(text(run('ab'))).toBe('ab');
    expect(text(run('abcd'))).toBe('abcd');
    expect(run('abcde').outcome).toBe('filtered');
    expect(pipeline([{ bounds_check: {} }]).run('').outcome).toBe('filtered'); // Bento's min_part_size default 1
    expect(pipeline([{ bounds_check: { min_parts: 2 } }]).run('abc').outcome).toBe('filtered');
  });

  it('log writes its fixed message at its level with the size, never the contents', () => {
    const { run, lines } = pipeline([{ log: { level: 'WARN', message: 'order seen' } }]);
    expect(text(run('{"card":"4111"}'))).toBe('{"card":"4111"}');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, msg: 'order seen', processor: 0, bytes: 15 });
    expect(JSON.stringify(lines)).not.toContain('4111');
  });
});
