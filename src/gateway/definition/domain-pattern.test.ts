import { describe, expect, it } from 'vitest';
import { parseDomain } from '../../domain/domain-pattern.ts';
import { certificateNamePattern, checkedDomain, DomainTable, matchesDomain } from './domain-pattern.ts';

describe('domain patterns', () => {
  it("reads a host, *.x (one or more labels) and Tyk's one-label host variables", () => {
    expect(parseDomain('API.example.com')).toEqual({ kind: 'host', host: 'api.example.com' });
    expect(parseDomain('*.example.com')).toEqual({ kind: 'subdomains', suffix: '.example.com' });
    for (const variable of ['{?:[^.]+}', '{sub}', '{sub:[^.]+}'])
      expect(parseDomain(`${variable}.example.com`)).toEqual({ kind: 'label', suffix: '.example.com' });
  });

  it('refuses other wildcards, naming the field', () => {
    expect(() => checkedDomain('a.*.example.com', 'domain')).toThrow(
      'domain a.*.example.com: only a whole first label may be a wildcard: *.example.com (one or more labels) or {?:[^.]+}.example.com (exactly one)',
    );
    expect(() => checkedDomain('{sub:[a-z]+}.example.com', 'domain')).toThrow('only a whole first label may be a wildcard');
    expect(() => checkedDomain('*', 'x-gw-api-gateway.server.customDomain.name')).toThrow(
      'x-gw-api-gateway.server.customDomain.name *: a wildcard is only supported as the whole first label, followed by a domain',
    );
    expect(checkedDomain('Shop.Example.com', 'domain')).toBe('shop.example.com');
  });

  it('matches as Kubernetes wildcard hosts (one label) or as subdomains (one or more), never the parent itself', () => {
    const one = parseDomain('{?:[^.]+}.example.com') as Exclude<ReturnType<typeof parseDomain>, { problem: string }>;
    const many = parseDomain('*.example.com') as Exclude<ReturnType<typeof parseDomain>, { problem: string }>;
    expect(['foo.example.com', 'a.b.example.com', 'example.com', 'fooexample.com'].map((h) => matchesDomain(one, h))).toEqual([true, false, false, false]);
    expect(['foo.example.com', 'a.b.example.com', 'example.com', 'fooexample.com'].map((h) => matchesDomain(many, h))).toEqual([true, true, false, false]);
    expect(certificateNamePattern('*.Example.com')).toEqual(one);
    expect(certificateNamePattern('api.example.com')).toEqual({ kind: 'host', host: 'api.example.com' });
  });

  it('looks up the exact host, then the longest suffix, one label before one or more; keeps the first value of a pattern', () => {
    const table = new DomainTable<string>();
    table.setIfAbsent({ kind: 'subdomains', suffix: '.example.com' }, 'many');
    table.setIfAbsent({ kind: 'label', suffix: '.example.com' }, 'one');
    table.setIfAbsent({ kind: 'subdomains', suffix: '.b.example.com' }, 'deeper');
    table.setIfAbsent({ kind: 'host', host: 'x.example.com' }, 'host');
    expect(table.setIfAbsent({ kind: 'label', suffix: '.example.com' }, 'second')).toBe('one');
    const all = (host: string): string[] => {
      const seen: string[] = [];
      table.find(host, (v) => void seen.push(v));
      return seen;
    };
    expect(all('x.example.com')).toEqual(['host', 'one', 'many']);
    expect(all('a.b.example.com')).toEqual(['deeper', 'many']);
    expect(all('example.com')).toEqual([]);
  });
});
