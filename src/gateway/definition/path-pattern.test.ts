import { describe, expect, it } from 'vitest';
import { compilePathPattern, compileResourcePattern } from './path-pattern.ts';

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

  it('answers at once for many wildcards and a long path (each {name} is (.*): polynomial when backtracking)', () => {
    const pattern = compilePathPattern('/{a}/{b}/{c}/{d}/{e}/{f}/end');
    expect(pattern.test(`/${'x/'.repeat(5_000)}nope`)).toBe(false);
    expect(pattern.test('/1/2/3/4/5/6/end')).toBe(true);
  });
});

describe('compileResourcePattern (block lists, issue 10 item 3)', () => {
  const BYPASSES = [
    '/admin/',
    '/ADMIN',
    '/Admin',
    '/admin;x',
    '/admin%3bx',
    '/admin%3Bx',
    '/admin%20',
    '/admin%09',
    '/admin.',
    '/admin.json',
    '/admin/x',
    '/admin;x/y',
    '/AdMiN.JSON/x',
  ];

  it('blocks the entry in every spelling of it and of its sub-resources', () => {
    const pattern = compileResourcePattern('/admin');
    expect(pattern.test('/admin')).toBe(true);
    for (const candidate of BYPASSES) expect(pattern.test(candidate), candidate).toBe(true);
  });

  it('does not block a different resource that shares a prefix', () => {
    const pattern = compileResourcePattern('/admin');
    for (const candidate of ['/administrator', '/admins', '/admin-old', '/x/admin', '/']) expect(pattern.test(candidate), candidate).toBe(false);
  });

  it('reads the entry the way it reads the request', () => {
    expect(compileResourcePattern('/Admin/').test('/admin')).toBe(true);
    expect(compileResourcePattern('admin').test('/ADMIN/x')).toBe(true);
  });

  it('with a trailing $ blocks the resource itself in every spelling, not its sub-paths or extensions', () => {
    const pattern = compileResourcePattern('/admin$');
    for (const candidate of ['/admin', '/admin/', '/ADMIN', '/admin;x', '/admin%20', '/admin.']) expect(pattern.test(candidate), candidate).toBe(true);
    for (const candidate of ['/admin/x', '/admin.json', '/administrator']) expect(pattern.test(candidate), candidate).toBe(false);
  });

  it('keeps {name} a wildcard', () => {
    const pattern = compileResourcePattern('/users/{id}/secrets');
    expect(pattern.test('/users/7/secrets')).toBe(true);
    expect(pattern.test('/USERS/7/Secrets;x/more')).toBe(true);
    expect(pattern.test('/users/7/public')).toBe(false);
  });

  it('an entry for / blocks everything', () => {
    const pattern = compileResourcePattern('/');
    for (const candidate of ['/', '/a', '/a/b.json']) expect(pattern.test(candidate), candidate).toBe(true);
  });

  it('allow patterns stay strict: none of the block-list spellings widen them', () => {
    const allow = compilePathPattern('/public');
    for (const candidate of ['/public/', '/PUBLIC', '/Public', '/public;x', '/public%3Bx', '/public%20', '/public.', '/public.json', '/public/x']) {
      expect(allow.test(candidate), candidate).toBe(false);
    }
  });
});
