import { describe, expect, it } from 'vitest';
import { hasAmbiguousHost } from './host-header.ts';

describe('Host header count (RFC 9112 §3.2)', () => {
  it('accepts exactly one Host field, in any case, among other fields', () => {
    expect(hasAmbiguousHost(['Host', 'a.example', 'Accept', '*/*'])).toBe(false);
    expect(hasAmbiguousHost(['accept', '*/*', 'hOsT', 'a.example:8080', 'X-Host', 'b.example, c', 'Hosts', 'c'])).toBe(false);
  });

  it('finds a second Host field, whatever its spelling or value', () => {
    expect(hasAmbiguousHost(['Host', 'a.example', 'host', 'b.example'])).toBe(true);
    expect(hasAmbiguousHost(['Host', 'a.example', 'Accept', '*/*', 'HOST', 'a.example'])).toBe(true);
  });

  it('finds a list of hosts in one field (Host has no list form)', () => {
    expect(hasAmbiguousHost(['Host', 'a, b'])).toBe(true);
    expect(hasAmbiguousHost(['Host', 'a.example,b.example'])).toBe(true);
    expect(hasAmbiguousHost(['Host', 'a.example, a.example'])).toBe(true);
  });
});
