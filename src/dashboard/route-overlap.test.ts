// route-overlap.ts: which routes of two organisations can answer the same request on one gateway (nested listen
// paths on segment boundaries, overlapping domains, a domain-less API overlapping every domain).
import { describe, expect, it } from 'vitest';
import { descendantPrefix, domainsOverlap, listenPathAncestors, listenPathsNest, routesOverlap } from './route-overlap.ts';

describe('listen paths', () => {
  it('lists the ancestors a request path climbs through and the prefix of the paths below', () => {
    expect(listenPathAncestors('/a/b/c')).toEqual(['/', '/a', '/a/b', '/a/b/c']);
    expect(listenPathAncestors('/')).toEqual(['/']);
    expect(descendantPrefix('/a')).toBe('/a/');
    expect(descendantPrefix('/')).toBe('/');
  });

  it('nest on segment boundaries only, either way round, the root above everything', () => {
    expect(listenPathsNest('/orga', '/orga/users')).toBe(true);
    expect(listenPathsNest('/orga/users', '/orga')).toBe(true);
    expect(listenPathsNest('/orga', '/orga')).toBe(true);
    expect(listenPathsNest('/', '/anything/deep')).toBe(true);
    expect(listenPathsNest('/orga', '/orgab')).toBe(false);
    expect(listenPathsNest('/a/b', '/a/c')).toBe(false);
  });
});

describe('domains', () => {
  it('overlap when equal (any case), when either is domain-less, and when a wildcard covers the host', () => {
    expect(domainsOverlap('', '')).toBe(true);
    expect(domainsOverlap('', 'api.example.com')).toBe(true);
    expect(domainsOverlap('API.example.com', 'api.example.com')).toBe(true);
    expect(domainsOverlap('*.example.com', 'api.example.com')).toBe(true);
    expect(domainsOverlap('a.b.example.com', '{?:[^.]+}.example.com')).toBe(true); // wider than the router: label counts ignored
    expect(domainsOverlap('*.example.com', '*.b.example.com')).toBe(true);
  });

  it('do not overlap for distinct hosts, a host outside a wildcard, or unrelated wildcards', () => {
    expect(domainsOverlap('a.example.com', 'b.example.com')).toBe(false);
    expect(domainsOverlap('*.example.com', 'example.com')).toBe(false);
    expect(domainsOverlap('*.example.com', '*.example.org')).toBe(false);
  });
});

describe('routesOverlap', () => {
  it('needs both: overlapping domains and nested listen paths', () => {
    expect(routesOverlap({ domain: '', listen_path: '/orga' }, { domain: '', listen_path: '/orga/users' })).toBe(true);
    expect(routesOverlap({ domain: '', listen_path: '/orga' }, { domain: 'gw.example.com', listen_path: '/' })).toBe(true);
    expect(routesOverlap({ domain: 'a.test', listen_path: '/orga' }, { domain: 'b.test', listen_path: '/orga/users' })).toBe(false);
    expect(routesOverlap({ domain: '', listen_path: '/orga' }, { domain: '', listen_path: '/orgb' })).toBe(false);
  });
});
