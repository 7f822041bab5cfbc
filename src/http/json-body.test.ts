// The bounded body parser: depth refused before JSON.parse (and without recursion), strings no store can keep
// refused naming their field, everything else parsed as JSON.parse would.
import { describe, expect, it } from 'vitest';
import { HttpError } from './errors.ts';
import { MAX_JSON_DEPTH, parseJsonBody, parseJsonObjectBody, parseJsonText } from './json-body.ts';

const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

function refusal(run: () => unknown): HttpError {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parseJsonText', () => {
  it('accepts nesting up to the limit and refuses one level more, naming the limit', () => {
    expect(() => parseJsonText(nested(MAX_JSON_DEPTH))).not.toThrow();
    const error = refusal(() => parseJsonText(nested(MAX_JSON_DEPTH + 1)));
    expect(error.status).toBe(400);
    expect(error.message).toBe(`Request malformed: JSON nested deeper than ${MAX_JSON_DEPTH} levels (at character ${MAX_JSON_DEPTH})`);
  });

  it('refuses the audit body (config_data nested 5 000 deep) and one nested a million deep without overflowing the stack', () => {
    const audit = `{"name":"x","config_data":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
    expect(refusal(() => parseJsonText(audit)).message).toMatch(/nested deeper than 100 levels/);
    expect(refusal(() => parseJsonText(nested(1_000_000))).message).toMatch(/nested deeper than/);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ s: `"${'['.repeat(500)}\\"{{{` });
    expect(parseJsonText(text)).toEqual(JSON.parse(text));
  });

  it('takes its limit as an option', () => {
    expect(refusal(() => parseJsonText('{"a":{"b":1}}', { maxDepth: 1 })).message).toMatch(/deeper than 1 levels/);
  });

  it('refuses NUL and lone surrogates in values and keys, naming the field', () => {
    expect(refusal(() => parseJsonText('{"a":{"b":["ok","x\\u0000y"]}}')).message).toBe(
      'Request malformed: a.b[1]: contains a NUL character (\\u0000), which is not allowed',
    );
    expect(refusal(() => parseJsonText('{"name":"\\ud800"}')).message).toBe('Request malformed: name: contains a lone UTF-16 surrogate (not valid Unicode)');
    expect(refusal(() => parseJsonText('{"m":{"k\\u0000":1}}')).message).toMatch(/^Request malformed: m: a key contains a NUL/);
    expect(parseJsonText('{"pair":"\\ud83d\\ude00"}')).toEqual({ pair: '😀' });
  });

  it('words a syntax error as malformed', () => {
    const error = refusal(() => parseJsonText('{"a":'));
    expect(error.code).toBe('malformed');
    expect(error.message).toMatch(/^Request malformed: /);
  });
});

describe('parseJsonBody / parseJsonObjectBody', () => {
  it('reads strings and Buffers, refuses an empty body and a non-object where an object is wanted', () => {
    expect(parseJsonBody(Buffer.from('[1]'))).toEqual([1]);
    expect(refusal(() => parseJsonBody('  ')).message).toBe('Request malformed: the body is empty, expected JSON');
    expect(refusal(() => parseJsonObjectBody('[1]', 'the policy')).message).toBe('Request malformed: the policy must be a JSON object');
  });
});
