import { describe, expect, it } from 'vitest';
import type { IngressObject, ServiceObject } from './kinds.ts';
import { childName, ingressRoutes, normalizePath } from './routes.ts';

const svc: ServiceObject = { metadata: { name: 'web', namespace: 'shop' }, spec: { ports: [{ name: 'http', port: 8081 }] } };
const services = (ns: string, name: string) => (ns === 'shop' && name === 'web' ? svc : undefined);
const ing = (spec: IngressObject['spec']): IngressObject => ({ metadata: { name: 'front', namespace: 'shop' }, spec });
const port = (p: number | string) => ({ service: { name: 'web', port: typeof p === 'number' ? { number: p } : { name: p } } });

describe('ingressRoutes', () => {
  it('makes one route per rule and path, lowercases hosts, normalises Prefix paths, and adds the defaultBackend last', () => {
    const routes = ingressRoutes(
      ing({
        rules: [
          {
            host: 'Shop.Example.com',
            http: {
              paths: [
                { path: '/cart/', pathType: 'Prefix', backend: port(80) },
                { path: '/exact', pathType: 'Exact', backend: port('http') },
              ],
            },
          },
          { http: { paths: [{ pathType: 'ImplementationSpecific', backend: port(80) }] } },
        ],
        defaultBackend: port(9000),
      }),
      services,
    );
    expect(routes.map((r) => [r.host, r.listenPath, r.exact, r.upstream])).toEqual([
      ['shop.example.com', '/cart', false, 'http://web.shop.svc:80'],
      ['shop.example.com', '/exact', true, 'http://web.shop.svc:8081'],
      ['', '/', false, 'http://web.shop.svc:80'],
    ]);
  });

  it('keeps the first of two paths of one Ingress that normalise to the same host and path', () => {
    const routes = ingressRoutes(
      ing({
        rules: [
          {
            host: 'a',
            http: {
              paths: [
                { path: '/x', pathType: 'Prefix', backend: port(1) },
                { path: '/x/', pathType: 'Prefix', backend: port(2) },
              ],
            },
          },
        ],
      }),
      services,
    );
    expect(routes.map((r) => r.upstream)).toEqual(['http://web.shop.svc:1']);
  });

  it('reports a named port it cannot resolve, naming the field and the Service', () => {
    const routes = ingressRoutes(
      ing({
        rules: [
          {
            host: 'a',
            http: {
              paths: [
                { path: '/', pathType: 'Prefix', backend: port('grpc') },
                { path: '/b', pathType: 'Prefix', backend: { service: { name: 'gone', port: { name: 'http' } } } },
              ],
            },
          },
        ],
      }),
      services,
    );
    expect(routes.map((r) => r.problem)).toEqual([
      'spec.rules[0].http.paths[0]: Service shop/web has no port named grpc',
      'spec.rules[0].http.paths[1]: Service shop/gone does not exist (needed to resolve port http)',
    ]);
  });

  it('normalises paths and names children stably per host and path', () => {
    expect(normalizePath('//a//b/')).toBe('/a/b');
    expect(normalizePath('')).toBe('/');
    expect(childName('front', { host: 'a', listenPath: '/x' })).toBe(childName('front', { host: 'a', listenPath: '/x' }));
    expect(childName('front', { host: 'a', listenPath: '/x' })).not.toBe(childName('front', { host: 'b', listenPath: '/x' }));
    expect(childName('front', { host: 'a', listenPath: '/x' })).toMatch(/^front-[0-9a-f]{10}$/);
  });
});
