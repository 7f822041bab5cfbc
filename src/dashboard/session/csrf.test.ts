// The Origin check of cookie-authenticated writes and form posts: only this dashboard's own origin, or none (a
// non-browser client); https on the same host too when a TLS proxy sits in front (session_cookie_secure).
import { describe, expect, it } from 'vitest';
import { csrfTokenMatches, sameOrigin } from './csrf.ts';

const request = (origin: string | undefined, protocol: 'http' | 'https' = 'http') => ({
  headers: origin === undefined ? {} : { origin },
  protocol,
  host: 'portal.example.test:8080',
});

describe('sameOrigin', () => {
  it('accepts the own origin or none, and refuses another site, scheme or port', () => {
    expect(sameOrigin(request(undefined), false)).toBe(true);
    expect(sameOrigin(request('http://portal.example.test:8080'), false)).toBe(true);
    expect(sameOrigin(request('https://evil.example'), false)).toBe(false);
    expect(sameOrigin(request('http://portal.example.test:9090'), false)).toBe(false);
    expect(sameOrigin(request('https://portal.example.test:8080'), false)).toBe(false);
  });

  it('accepts https on the same host behind a TLS proxy, never another host', () => {
    expect(sameOrigin(request('https://portal.example.test:8080'), true)).toBe(true);
    expect(sameOrigin(request('https://evil.example'), true)).toBe(false);
  });
});

describe('csrfTokenMatches', () => {
  it('matches the token only, and nothing that is not a string', () => {
    expect(csrfTokenMatches('token-1', 'token-1')).toBe(true);
    expect(csrfTokenMatches('token-2', 'token-1')).toBe(false);
    expect(csrfTokenMatches(['token-1'], 'token-1')).toBe(false);
    expect(csrfTokenMatches(undefined, 'token-1')).toBe(false);
  });
});
