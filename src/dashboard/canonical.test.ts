// canonicalJson: the same value always gives the same text, whatever the key order.
import { describe, expect, it } from 'vitest';
import { canonicalJson, digestOf } from './canonical.ts';

describe('canonicalJson', () => {
  it('sorts keys at every level and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: null }], c: 'x' }, u: undefined })).toBe('{"a":{"c":"x","d":[2,{"y":null,"z":1}]},"b":1}');
  });

  it('gives equal digests to equal values written in another order', () => {
    expect(digestOf({ a: 1, b: [1, 2] })).toBe(digestOf({ b: [1, 2], a: 1 }));
    expect(digestOf({ a: 1 })).not.toBe(digestOf({ a: 2 }));
  });
});
