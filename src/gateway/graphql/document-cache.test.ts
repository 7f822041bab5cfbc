import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DocumentCache } from './document-cache.ts';

const schema = buildSchema('type Query { a: Int, b: Int, c: Int }');

describe('DocumentCache', () => {
  it('analyses a query text once and answers repeats from memory, failures included', () => {
    const cache = new DocumentCache(schema, 10);
    expect(cache.analysis('{ a }')).toBe(cache.analysis('{ a }'));
    expect(cache.analysis('{ nope }')).toBe(cache.analysis('{ nope }'));
    expect(cache.size).toBe(2);
  });

  it('holds at most its number of entries, evicting the least recently used', () => {
    const cache = new DocumentCache(schema, 2);
    const a = cache.analysis('{ a }');
    const b = cache.analysis('{ b }');
    expect(cache.analysis('{ a }')).toBe(a); // a is now the most recent
    cache.analysis('{ c }'); // evicts b
    expect(cache.size).toBe(2);
    expect(cache.analysis('{ a }')).toBe(a);
    expect(cache.analysis('{ b }')).not.toBe(b);
  });

  it('keeps nothing with 0 entries', () => {
    const cache = new DocumentCache(schema, 0);
    expect(cache.analysis('{ a }')).not.toBe(cache.analysis('{ a }'));
    expect(cache.size).toBe(0);
  });
});
