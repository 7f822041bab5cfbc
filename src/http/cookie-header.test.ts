// The Cookie header parser (http/cookie-header.ts): pairs and trimming, which occurrence of a duplicate name wins,
// malformed headers, decoding on request only, no inherited names, and removing one cookie from the header.
import { describe, expect, it } from 'vitest';
import { cookieHeaderWithout, cookieNamed, parseCookieHeader } from './cookie-header.ts';

describe('parseCookieHeader', () => {
  it('reads every pair, names and values trimmed, values as sent', () => {
    expect({ ...parseCookieHeader(' a=1;b = two ;c="quoted"; d=%41') }).toEqual({ a: '1', b: 'two', c: '"quoted"', d: '%41' });
  });

  it('keeps the first occurrence of a name sent twice by default, the last on request', () => {
    expect(parseCookieHeader('id=first; other=x; id=second').id).toBe('first');
    expect(parseCookieHeader('id=first; other=x; id=second', { duplicates: 'last' }).id).toBe('second');
    expect(parseCookieHeader('id=; id=second').id).toBe('');
  });

  it('skips malformed segments and keeps the well-formed ones', () => {
    expect({ ...parseCookieHeader('flag; a=1;;=orphan; =; b=2=3; ;c') }).toEqual({ a: '1', b: '2=3' });
    expect({ ...parseCookieHeader(';;;') }).toEqual({});
    expect({ ...parseCookieHeader('no pairs at all') }).toEqual({});
    expect({ ...parseCookieHeader(undefined) }).toEqual({});
    expect({ ...parseCookieHeader('') }).toEqual({});
  });

  it('percent-decodes only when asked, keeping a malformed escape raw', () => {
    expect(parseCookieHeader('a=%41%20b; bad=%E0%A4%A', { decode: 'uri' })).toMatchObject({ a: 'A b', bad: '%E0%A4%A' });
    expect(parseCookieHeader('a=%41%20b').a).toBe('%41%20b');
  });

  it('returns a record without Object.prototype, so inherited names are never cookies', () => {
    const cookies = parseCookieHeader('__proto__=x; a=1');
    expect('toString' in cookies).toBe(false);
    expect('constructor' in cookies).toBe(false);
    expect(cookies['__proto__']).toBe('x');
    expect(cookieNamed(undefined, 'toString')).toBeUndefined();
    expect(cookieNamed('', 'constructor')).toBeUndefined();
    expect(cookieNamed('a=1', 'hasOwnProperty')).toBeUndefined();
  });
});

describe('cookieNamed', () => {
  it('matches the exact name only, first occurrence', () => {
    expect(cookieNamed('token_old=a; token=b; token=c', 'token')).toBe('b');
    expect(cookieNamed('Token=a', 'token')).toBeUndefined();
    expect(cookieNamed(undefined, 'token')).toBeUndefined();
  });
});

describe('cookieHeaderWithout', () => {
  it('removes every pair of the exact name and rejoins the rest', () => {
    expect(cookieHeaderWithout('a=1;token=x; tokenish=2 ;token=y', 'token')).toBe('a=1; tokenish=2');
  });

  it('answers undefined when nothing is left, and keeps malformed segments it does not match', () => {
    expect(cookieHeaderWithout(' token=x ', 'token')).toBeUndefined();
    expect(cookieHeaderWithout('flag; token=x', 'token')).toBe('flag');
  });
});
