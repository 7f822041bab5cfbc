import { describe, expect, it } from 'vitest';
import { RoutingTable } from './router.ts';

const api = (listenPath: string, domain?: string) => ({ listenPath, domain, name: `${domain ?? '*'}${listenPath}` });

describe('RoutingTable', () => {
  const table = new RoutingTable([api('/a'), api('/a/b'), api('/'), api('/x', 'api.example.com'), api('/x', '*.tenant.io'), api('/x')]);
  const route = (path: string, host?: string) => table.match(host, path)?.name;

  it('picks the longest listen path', () => {
    expect(route('/a/b/c')).toBe('*/a/b');
    expect(route('/a/bc')).toBe('*/a');
    expect(route('/a')).toBe('*/a');
    expect(route('/a/')).toBe('*/a');
  });

  it('matches on segment boundaries only: /a never serves /ab', () => {
    expect(route('/ab')).toBe('*/');
    expect(new RoutingTable([api('/a')]).match(undefined, '/ab')).toBeUndefined();
  });

  it('prefers an API bound to the request host, exact before wildcard, then a domain-less one', () => {
    expect(route('/x/1', 'API.example.com:8080')).toBe('api.example.com/x');
    expect(route('/x/1', 'eu.tenant.io')).toBe('*.tenant.io/x');
    expect(route('/x/1', 'tenant.io')).toBe('*/x');
    expect(route('/x/1', 'other.org')).toBe('*/x');
    expect(route('/a', 'api.example.com')).toBe('*/a');
  });

  it('matches {?:[^.]+}.x on exactly one label and *.x on one or more, the one-label wildcard first', () => {
    const wild = new RoutingTable([api('/', '{?:[^.]+}.example.com'), api('/', '*.deep.io'), api('/', '{?:[^.]+}.deep.io'), api('/')]);
    const at = (host: string) => wild.match(host, '/x')?.name;
    expect(at('foo.example.com')).toBe('{?:[^.]+}.example.com/');
    expect(at('FOO.example.com:8080')).toBe('{?:[^.]+}.example.com/');
    expect(at('a.b.example.com')).toBe('*/');
    expect(at('example.com')).toBe('*/');
    expect(at('a.deep.io')).toBe('{?:[^.]+}.deep.io/');
    expect(at('a.b.deep.io')).toBe('*.deep.io/');
  });

  it('serves an exact route on its listen path alone; paths under it fall through to shorter routes', () => {
    const exactTable = new RoutingTable([{ ...api('/e'), exact: true }, api('/'), { ...api('/e', 'h.example.com'), exact: true }]);
    expect(exactTable.match(undefined, '/e')?.name).toBe('*/e');
    expect(exactTable.match(undefined, '/e/')?.name).toBe('*/e');
    expect(exactTable.match(undefined, '/e/x')?.name).toBe('*/');
    expect(exactTable.match('h.example.com', '/e/x')?.name).toBe('*/');
    expect(exactTable.match('h.example.com', '/e')?.name).toBe('h.example.com/e');
  });

  it('reports a second API on the same domain and listen path as a conflict and keeps the first', () => {
    const conflicting = new RoutingTable([api('/same'), { ...api('/same'), name: 'second' }]);
    expect(conflicting.size).toBe(1);
    expect(conflicting.match(undefined, '/same')?.name).toBe('*/same');
    expect(conflicting.conflicts.map((c) => c.rejected.name)).toEqual(['second']);
  });

  it('holds an internal API without routing it: no path or host leads to it and it conflicts with no one', () => {
    const withInternal = new RoutingTable([
      { ...api('/secret'), internal: true },
      { ...api('/', 'h.example.com'), name: 'internal-root', internal: true },
      { ...api('/secret'), name: 'public' },
    ]);
    expect(withInternal.match(undefined, '/secret')?.name).toBe('public');
    expect(withInternal.match('h.example.com', '/x')).toBeUndefined();
    expect(withInternal.conflicts).toEqual([]);
    expect(withInternal.routes().map((r) => r.name)).toEqual(['*/secret', 'internal-root', 'public']);
  });
});
