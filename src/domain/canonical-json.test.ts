// canonicalJson and contentHash: the same value always gives the same text and hash, whatever the key order.
// Expected hashes were computed outside the code: `printf '<text>' | sha256sum`.
import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash } from './canonical-json.ts';

describe('canonicalJson', () => {
  it('sorts keys at every level and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: null }], c: 'x' }, u: undefined })).toBe('{"a":{"c":"x","d":[2,{"y":null,"z":1}]},"b":1}');
  });

  it('writes undefined in an array as null', () => {
    expect(canonicalJson([1, undefined])).toBe('[1,null]');
  });
});

describe('contentHash', () => {
  it('is the SHA-256 of the canonical text, whatever the key order at any depth', () => {
    // printf '{"a":1,"b":{"c":[1,{"d":2,"e":3}]}}' | sha256sum
    const expected = 'd160c1d18d8e9652389a7e5bfcb5f257751caeb73d2b081b92652271e90ca1b8';
    expect(contentHash({ a: 1, b: { c: [1, { d: 2, e: 3 }] } })).toBe(expected);
    expect(contentHash({ b: { c: [1, { e: 3, d: 2 }] }, a: 1 })).toBe(expected);
  });

  it('ignores undefined members', () => {
    // printf '{"a":1}' | sha256sum
    expect(contentHash({ a: 1, b: undefined })).toBe('015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862');
  });
});
