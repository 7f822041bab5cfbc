import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash } from './hash.ts';
import { idFor } from './ids.ts';

describe('contentHash', () => {
  it('does not depend on key order, at any depth', () => {
    expect(contentHash({ a: 1, b: { c: [1, { d: 2, e: 3 }] } })).toBe(contentHash({ b: { c: [1, { e: 3, d: 2 }] }, a: 1 }));
  });

  it('changes with any value, and ignores undefined', () => {
    expect(contentHash({ a: 1 })).not.toBe(contentHash({ a: 2 }));
    expect(canonicalJson({ a: 1, b: undefined })).toBe('{"a":1}');
    expect(canonicalJson([1, undefined])).toBe('[1,null]');
  });
});

describe('idFor', () => {
  it('is base64url of namespace/name: stable and URL-safe', () => {
    expect(idFor('default', 'httpbin')).toBe(Buffer.from('default/httpbin').toString('base64url'));
    expect(idFor('team-a', 'api')).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(idFor('a', 'b')).not.toBe(idFor('b', 'a'));
  });
});
