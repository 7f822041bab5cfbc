import { describe, expect, it } from 'vitest';
import { normalizeRequestPath } from './request-path.ts';

const path = (url: string): string => {
  const result = normalizeRequestPath(url);
  if (!result.ok) throw new Error(result.reason);
  return result.path;
};

describe('normalizeRequestPath', () => {
  it('keeps an ordinary path and splits the query off', () => {
    expect(normalizeRequestPath('/httpbin/get?x=1&y=%2F')).toEqual({ ok: true, path: '/httpbin/get', query: '?x=1&y=%2F' });
    expect(path('/')).toBe('/');
    expect(path('/a/b/')).toBe('/a/b/');
  });

  it('resolves dot segments, never above the root', () => {
    expect(path('/public/../private/x')).toBe('/private/x');
    expect(path('/a/./b')).toBe('/a/b');
    expect(path('/../../etc/passwd')).toBe('/etc/passwd');
    expect(path('/a/b/..')).toBe('/a/');
  });

  it('decodes encoded dots before resolving them', () => {
    expect(path('/public/%2e%2e/private')).toBe('/private');
    expect(path('/public/%2E%2e/private')).toBe('/private');
    expect(path('/public/.%2e/private')).toBe('/private');
  });

  it('collapses repeated slashes', () => {
    expect(path('//private//x')).toBe('/private/x');
    expect(path('/a///b')).toBe('/a/b');
  });

  it('decodes unreserved characters and keeps other escapes in one spelling', () => {
    expect(path('/%41pi/%7euser')).toBe('/Api/~user');
    expect(path('/a%20b/%c3%a9')).toBe('/a%20b/%C3%A9');
  });

  it('refuses what different servers read differently', () => {
    for (const url of ['/a%2fb', '/a%2F..%2Fb', '/a%5cb', '/a\\..\\b', '/a%00', '/a%zz', '/a%2', 'http://x/a']) {
      expect(normalizeRequestPath(url).ok, url).toBe(false);
    }
  });
});

describe('normalizeRequestPath: dot-segments in disguise (issue 10, item 4)', () => {
  it('refuses a segment that a parameter-stripping or trimming server reads as . or ..', () => {
    const disguised = [
      '/open/..;/..;/x',
      '/open/..;x/admin',
      '/open/.;/x',
      '/open/.;jsessionid=1/x',
      '/open/%2e%2e;/x',
      '/open/%2E%2E;/x',
      '/open/%2e%2e%3b/x',
      '/open/%2E%2E%3B/x',
      '/open/..%3b/x',
      '/open/..%3B/x',
      '/open/.%2e;/x',
      '/open/%2e;/x',
      '/open/%2e%3b/x',
      '/open/..%20/x',
      '/open/..%09/x',
      '/open/..;',
    ];
    for (const url of disguised) {
      const result = normalizeRequestPath(url);
      expect(result.ok, url).toBe(false);
      if (!result.ok) expect(result.reason, url).toMatch(/dot-segment/);
    }
  });

  it('keeps ordinary segments that merely contain dots or parameters', () => {
    expect(path('/open/a..;b/x')).toBe('/open/a..;b/x');
    expect(path('/open/v1.0;x/y')).toBe('/open/v1.0;x/y');
    expect(path('/open/.well-known/x')).toBe('/open/.well-known/x');
    expect(path('/open/.../x')).toBe('/open/.../x');
  });

  it('refuses a raw fragment marker in the path', () => {
    expect(normalizeRequestPath('/admin#x').ok).toBe(false);
  });
});
