import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StructuralSchemaError, toStructuralSchema } from './structural.ts';

describe('toStructuralSchema', () => {
  it('turns an unconstrained value into a node that preserves unknown fields', () => {
    expect(toStructuralSchema(z.object({ any: z.unknown() }))).toEqual({
      type: 'object',
      properties: { any: { 'x-kubernetes-preserve-unknown-fields': true } },
      required: ['any'],
    });
  });

  it('turns a free-form record into an object that preserves unknown fields', () => {
    expect(toStructuralSchema(z.record(z.string(), z.unknown()))).toEqual({
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
    });
  });

  it('keeps a typed map as additionalProperties without propertyNames', () => {
    expect(toStructuralSchema(z.record(z.string().regex(/^[A-Z]+$/), z.string()))).toEqual({
      type: 'object',
      additionalProperties: { type: 'string' },
    });
  });

  it('never puts additionalProperties beside properties; a loose object preserves unknown fields', () => {
    const schema = toStructuralSchema(z.looseObject({ a: z.string() }));
    expect(schema).not.toHaveProperty('additionalProperties');
    expect(schema['x-kubernetes-preserve-unknown-fields']).toBe(true);
    expect(toStructuralSchema(z.strictObject({ a: z.string() }))).not.toHaveProperty('additionalProperties');
  });

  it('writes int-or-string for a union of an integer and a string', () => {
    expect(toStructuralSchema(z.union([z.int(), z.string()]).describe('port'))).toEqual({
      description: 'port',
      'x-kubernetes-int-or-string': true,
    });
  });

  it('drops the ±2^53 bounds zod puts on integers, keeps real bounds, and marks them int64', () => {
    expect(toStructuralSchema(z.int())).toEqual({ type: 'integer', format: 'int64' });
    expect(toStructuralSchema(z.int().min(-1).max(10))).toEqual({ type: 'integer', format: 'int64', minimum: -1, maximum: 10 });
  });

  it("keeps date-time as a format without zod's RFC 3339 regex", () => {
    expect(toStructuralSchema(z.iso.datetime())).toEqual({ type: 'string', format: 'date-time' });
  });

  it('keeps defaults optional (input side) and carries them', () => {
    expect(toStructuralSchema(z.object({ port: z.int().default(8080) }))).toEqual({
      type: 'object',
      properties: { port: { type: 'integer', format: 'int64', default: 8080 } },
    });
  });

  it('carries x-kubernetes metadata such as list-map keys and CEL rules', () => {
    const schema = toStructuralSchema(
      z.array(z.object({ type: z.string() })).meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] }),
    );
    expect(schema['x-kubernetes-list-type']).toBe('map');
    expect(schema['x-kubernetes-list-map-keys']).toEqual(['type']);
  });

  it('keeps any value for a number-or-string union (the webhook checks it), with its description', () => {
    expect(toStructuralSchema(z.object({ ratio: z.union([z.number(), z.string()]).optional().describe('a ratio') }))).toEqual({
      type: 'object',
      properties: { ratio: { description: 'a ratio', 'x-kubernetes-preserve-unknown-fields': true } },
    });
  });

  it('refuses unions other than int-or-string, naming the path', () => {
    expect(() => toStructuralSchema(z.object({ spec: z.object({ v: z.union([z.string(), z.boolean()]) }) }))).toThrow(
      new StructuralSchemaError('.spec.v', 'union of boolean, string: only int-or-string unions are structural'),
    );
  });

  it('refuses nullable values and literals that zod writes as unsupported keywords', () => {
    expect(() => toStructuralSchema(z.object({ n: z.string().nullable() }))).toThrow(StructuralSchemaError);
  });

  it("refuses regexes Go's RE2 cannot compile", () => {
    expect(() => toStructuralSchema(z.string().regex(/^(?!x)/))).toThrow(/lookaround/);
    expect(() => toStructuralSchema(z.string().regex(/(a)\1/))).toThrow(/backreference/);
  });
});
