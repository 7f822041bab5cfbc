// The gateway's JSON Schema compiler (compile.ts) costs time linear in the body: `pattern` and `patternProperties`
// on RE2, patterns RE2 refuses make the schema invalid naming the pattern, and `uniqueItems` without pairwise
// comparison, reporting as ajv did.
import type { ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, newSchemaCompiler } from './compile.ts';
import { canonicalKey } from './unique-items.ts';

function compiled(schema: Record<string, unknown>): ValidateFunction {
  const result = compileJsonSchema(newSchemaCompiler(), schema);
  if ('problem' in result) throw new Error(result.problem);
  return result;
}

describe('JSON Schema patterns', () => {
  it('answers ^(a|a)*$ at once (issue 23: 27 characters blocked every API for 17-25 s)', () => {
    const validate = compiled({ type: 'object', properties: { name: { type: 'string', pattern: '^(a|a)*$' } } });
    expect(validate({ name: `${'a'.repeat(10_000)}!` })).toBe(false);
    expect(validate.errors?.[0]?.message).toBe('must match pattern "^(a|a)*$"');
    expect(validate({ name: 'aaa' })).toBe(true);
  });

  it('runs patternProperties on RE2 too', () => {
    const validate = compiled({ type: 'object', patternProperties: { '^x(a|aa)+$': { type: 'number' } } });
    expect(validate({ [`x${'a'.repeat(10_000)}`]: 'text' })).toBe(false);
    expect(validate({ [`x${'a'.repeat(10_000)}!`]: 'text' })).toBe(true);
  });

  it('refuses, naming the pattern, what RE2 cannot match in linear time', () => {
    const problem = (schema: Record<string, unknown>): string | undefined => {
      const result = compileJsonSchema(newSchemaCompiler(), schema);
      return 'problem' in result ? result.problem : undefined;
    };
    expect(problem({ properties: { a: { type: 'string', pattern: '^(?!admin)' } } })).toMatch(
      /^is not a valid JSON Schema: pattern "\^\(\?!admin\)" is not a valid RE2 regular expression \(lookaround is not supported/,
    );
    expect(problem({ patternProperties: { '(a)\\1': { type: 'number' } } })).toMatch(
      /pattern "\(a\)\\\\1" is not a valid RE2 regular expression \(backreferences are not supported/,
    );
  });

  it('keeps distinct patterns distinct (ajv caches compiled patterns by their text)', () => {
    const validate = compiled({ type: 'object', properties: { a: { pattern: '^a$' }, b: { pattern: '^b$' } } });
    expect(validate({ a: 'a', b: 'b' })).toBe(true);
    expect(validate({ a: 'b', b: 'a' })).toBe(false);
  });
});

describe('uniqueItems', () => {
  it('finds duplicates by JSON equality: key order does not matter, types do', () => {
    const validate = compiled({ type: 'array', uniqueItems: true });
    expect(validate([{ a: 1, b: [1, { c: 2, d: 3 }] }, 3, { b: [1, { d: 3, c: 2 }], a: 1 }])).toBe(false);
    expect(validate.errors?.map(({ message, params }) => ({ message, params }))).toEqual([
      { message: 'must NOT have duplicate items (items ## 0 and 2 are identical)', params: { i: 2, j: 0 } },
    ]);
    expect(validate([1, '1', [1], { 1: 1 }, null, true, 'true'])).toBe(true);
    expect(compiled({ type: 'array', uniqueItems: false })([1, 1])).toBe(true);
  });

  it('checks 100 000 distinct objects in one pass (issue 23: pairwise comparison froze the gateway for minutes)', () => {
    const validate = compiled({ type: 'object', properties: { items: { type: 'array', uniqueItems: true } } });
    const items = Array.from({ length: 100_000 }, (_, i) => ({ id: i, name: `item ${i}` }));
    expect(validate({ items })).toBe(true);
    expect(validate({ items: [...items, { name: 'item 7', id: 7 }] })).toBe(false);
    expect(validate.errors?.[0]?.instancePath).toBe('/items');
  });

  it('writes a canonical key: sorted keys, JSON text', () => {
    expect(canonicalKey({ b: 1, a: ['x', { d: null, c: 1.5 }] })).toBe('{"a":["x",{"c":1.5,"d":null}],"b":1}');
  });
});
