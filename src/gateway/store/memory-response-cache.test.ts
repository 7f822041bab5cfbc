import { describe, expect, it } from 'vitest';
import { MemoryResponseCache } from './memory-response-cache.ts';

describe('the embedded store\'s response cache', () => {
  it('keeps an entry until its expiry', () => {
    const cache = new MemoryResponseCache(1000);
    cache.put('a', Buffer.from('one'), 100, 0);
    expect(cache.get('a', 99)?.toString()).toBe('one');
    expect(cache.get('a', 100)).toBeUndefined();
  });

  it('drops the oldest entries once the entries together pass the memory bound, and never keeps one larger than it', () => {
    const cache = new MemoryResponseCache(10);
    cache.put('a', Buffer.alloc(4), 1000, 0);
    cache.put('b', Buffer.alloc(4), 1000, 0);
    cache.put('c', Buffer.alloc(4), 1000, 0);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('b', 1)).toBeDefined();
    expect(cache.get('c', 1)).toBeDefined();
    cache.put('big', Buffer.alloc(11), 1000, 0);
    expect(cache.get('big', 1)).toBeUndefined();
    expect(cache.get('c', 1)).toBeDefined();
  });

  it('replaces an entry under the same key, and sweeps expired ones', () => {
    const cache = new MemoryResponseCache(10);
    cache.put('a', Buffer.alloc(6), 1000, 0);
    cache.put('a', Buffer.alloc(6), 10, 0); // the first one's bytes are released, not counted twice
    cache.put('b', Buffer.alloc(4), 1000, 0);
    expect(cache.get('a', 1)).toBeDefined();
    cache.sweep(10);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('b', 11)).toBeDefined();
  });
});
