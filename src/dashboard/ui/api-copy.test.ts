// A duplicated Classic API: a new id, a copy's name and a listen path that does not clash.
import { describe, expect, it } from 'vitest';
import { copyListenPath, duplicateDefinition } from './api-copy.ts';

describe('API duplicate', () => {
  it('changes the listen path per attempt, keeping a trailing slash', () => {
    expect(copyListenPath('/orders/', 1)).toBe('/orders-copy/');
    expect(copyListenPath('/orders', 2)).toBe('/orders-copy-2');
    expect(copyListenPath('/', 1)).toBe('/root-copy/');
  });

  it('drops the ids and keeps every other field', () => {
    const copy = duplicateDefinition({ api_id: 'a1', id: 'x', name: 'Orders', proxy: { listen_path: '/orders/', target_url: 'http://o/' }, tags: ['t'] }, 1);
    expect(copy).toEqual({ name: 'Orders (copy)', proxy: { listen_path: '/orders-copy/', target_url: 'http://o/' }, tags: ['t'] });
  });
});
