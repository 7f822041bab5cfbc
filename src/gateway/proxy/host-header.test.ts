import { describe, expect, it } from 'vitest';
import { hasDuplicateHost } from './host-header.ts';

describe('Host header count (RFC 9112 §3.2)', () => {
  it('accepts exactly one Host field, in any case, among other fields', () => {
    expect(hasDuplicateHost(['Host', 'a.example', 'Accept', '*/*'])).toBe(false);
    expect(hasDuplicateHost(['accept', '*/*', 'hOsT', 'a.example', 'X-Host', 'b.example', 'Hosts', 'c'])).toBe(false);
  });

  it('finds a second Host field, whatever its spelling or value', () => {
    expect(hasDuplicateHost(['Host', 'a.example', 'host', 'b.example'])).toBe(true);
    expect(hasDuplicateHost(['Host', 'a.example', 'Accept', '*/*', 'HOST', 'a.example'])).toBe(true);
  });
});
