import { describe, expect, it } from 'vitest';
import { compilePathPattern } from './path-pattern.ts';

describe('compilePathPattern', () => {
  it('matches a literal path exactly', () => {
    const pattern = compilePathPattern('/get');
    expect(pattern.test('/get')).toBe(true);
    expect(pattern.test('/getaway')).toBe(false);
    expect(pattern.test('/x/get')).toBe(false);
  });

  it('treats {name} as a wildcard matching everything, slashes included', () => {
    const pattern = compilePathPattern('/status/{code}');
    expect(pattern.test('/status/200')).toBe(true);
    expect(pattern.test('/status/a/b')).toBe(true);
    expect(pattern.test('/status/')).toBe(true);
    expect(pattern.test('/statuses/1')).toBe(false);
  });

  it('escapes regular-expression characters in literal parts', () => {
    const pattern = compilePathPattern('/v1.0/items+(x)');
    expect(pattern.test('/v1.0/items+(x)')).toBe(true);
    expect(pattern.test('/v1x0/itemss(x)')).toBe(false);
  });

  it('adds the leading slash and honours ignore_case', () => {
    expect(compilePathPattern('health').test('/health')).toBe(true);
    expect(compilePathPattern('/Admin', true).test('/aDMIN')).toBe(true);
    expect(compilePathPattern('/Admin').test('/admin')).toBe(false);
  });
});
