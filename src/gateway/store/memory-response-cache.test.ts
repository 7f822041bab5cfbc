import { describe, expect, it } from 'vitest';
import { MemoryResponseCache } from './memory-response-cache.ts';

describe("the embedded store's response cache", () => {
  it('keeps an entry until its expiry', () => {
    const cache = new MemoryResponseCache(1000);
    cache.put('api', 'a', Buffer.from('one'), 100, 0);
    expect(cache.get('api', 'a', 99)?.toString()).toBe('one');
    expect(cache.get('api', 'a', 100)).toBeUndefined();
  });

  it('drops the oldest entries once the entries together pass the memory bound, and never keeps one larger than it', () => {
    const cache = new MemoryResponseCache(10);
    cache.put('api', 'a', Buffer.alloc(4), 1000, 0);
    cache.put('api', 'b', Buffer.alloc(4), 1000, 0);
    cache.put('api', 'c', Buffer.alloc(4), 1000, 0);
    expect(cache.get('api', 'a', 1)).toBeUndefined();
    expect(cache.get('api', 'b', 1)).toBeDefined();
    expect(cache.get('api', 'c', 1)).toBeDefined();
    cache.put('api', 'big', Buffer.alloc(11), 1000, 0);
    expect(cache.get('api', 'big', 1)).toBeUndefined();
    expect(cache.get('api', 'c', 1)).toBeDefined();
  });

  it('forgets every entry of one API at once, and only those', () => {
    const cache = new MemoryResponseCache(100);
    cache.put('one', 'a', Buffer.alloc(4), 1000, 0);
    cache.put('one', 'b', Buffer.alloc(4), 1000, 0);
    cache.put('two', 'a', Buffer.alloc(4), 1000, 0);
    cache.deleteApi('one');
    expect(cache.get('one', 'a', 1)).toBeUndefined();
    expect(cache.get('one', 'b', 1)).toBeUndefined();
    expect(cache.get('two', 'a', 1)).toBeDefined();
  });

  it('replaces an entry under the same key, and sweeps expired ones', () => {
    const cache = new MemoryResponseCache(10);
    cache.put('api', 'a', Buffer.alloc(6), 1000, 0);
    cache.put('api', 'a', Buffer.alloc(6), 10, 0); // the first one's bytes are released, not counted twice
    cache.put('api', 'b', Buffer.alloc(4), 1000, 0);
    expect(cache.get('api', 'a', 1)).toBeDefined();
    cache.sweep(10);
    expect(cache.get('api', 'a', 1)).toBeUndefined();
    expect(cache.get('api', 'b', 11)).toBeDefined();
  });
});
