import { describe, expect, it } from 'vitest';
import { childObjects } from './children.ts';
import type { IngressObject } from './kinds.ts';
import { ingressRoutes } from './routes.ts';

const TOKEN_PATH = '/.well-known/acme-challenge/AbC-123_tok';
const backend = (name: string) => ({ service: { name, port: { number: 8089 } } });
const ing = (labels: Record<string, string>, paths: { path: string; service: string }[]): IngressObject => ({
  metadata: { name: 'front', namespace: 'shop', uid: 'u1', labels },
  spec: {
    rules: [
      {
        host: 'shop.example.com',
        http: { paths: paths.map((p) => ({ path: p.path, pathType: 'ImplementationSpecific' as const, backend: backend(p.service) })) },
      },
    ],
  },
});

describe('ACME HTTP-01 solver paths', () => {
  it("are the challenge paths of cert-manager's solver Ingresses or towards its solver Services, nothing else", () => {
    const acme = (ingress: IngressObject) => ingressRoutes(ingress, () => undefined).map((r) => [r.listenPath, r.acme]);
    expect(acme(ing({ 'acme.cert-manager.io/http01-solver': 'true' }, [{ path: TOKEN_PATH, service: 'any' }]))).toEqual([[TOKEN_PATH, true]]);
    // http01.ingress.name: cert-manager added its path to an existing Ingress
    expect(
      acme(
        ing({}, [
          { path: '/', service: 'web' },
          { path: TOKEN_PATH, service: 'cm-acme-http-solver-x7k2p' },
        ]),
      ),
    ).toEqual([
      ['/', false],
      [TOKEN_PATH, true],
    ]);
    expect(
      acme(
        ing({}, [
          { path: TOKEN_PATH, service: 'web' },
          { path: '/.well-known/acme-challenge/', service: 'cm-acme-http-solver-x' },
          { path: '/api', service: 'cm-acme-http-solver-x' },
        ]),
      ),
    ).toEqual([
      [TOKEN_PATH, false],
      ['/.well-known/acme-challenge', false],
      ['/api', false],
    ]);
  });

  it('are served keyless, path and Host kept, whatever the template (here an OAS one with authentication)', () => {
    const ingress = ing({}, [{ path: TOKEN_PATH, service: 'cm-acme-http-solver-x7k2p' }]);
    const [route] = ingressRoutes(ingress, () => undefined);
    const template = {
      kind: 'GwOasApiDefinition' as const,
      spec: { gwOAS: { configmapRef: { name: 'tpl', keyName: 'oas.json' } }, contextRef: { name: 'prod', namespace: 'ops' } },
      document: { 'x-gw-api-gateway': { server: { authentication: { enabled: true } } } },
    };
    const children = childObjects(ingress, route!, template);
    expect(children.map((c) => c.kind)).toEqual(['api']);
    expect(children[0]!.object.spec).toEqual({
      name: expect.stringMatching(/^shop-front-/) as unknown,
      active: true,
      use_keyless: true,
      contextRef: { name: 'prod', namespace: 'ops' },
      domain: 'shop.example.com',
      proxy: { strip_listen_path: false, preserve_host_header: true, listen_path: TOKEN_PATH, target_url: 'http://cm-acme-http-solver-x7k2p.shop.svc:8089' },
    });
  });
});
