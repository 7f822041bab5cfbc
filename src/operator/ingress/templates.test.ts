import { describe, expect, it } from 'vitest';
import type { ApiDefinitionSpec } from '../../domain/crd/apidefinition.ts';
import type { IngressObject } from './kinds.ts';
import { fillClassicTemplate, fillOasTemplate, templateRefOf } from './templates.ts';

const fill = { name: 'ns-front-abc', host: 'shop.example.com', listenPath: '/cart', exact: true, upstream: 'http://web.ns.svc:80' };

describe('Ingress templates', () => {
  it('fills a Classic template: own name, no api_id, domain, listen path, upstream, exact; keeps everything else', () => {
    const template = {
      name: 'tpl',
      api_id: 'fixed',
      domain: 'x',
      use_keyless: false,
      use_standard_auth: true,
      proxy: { listen_path: '/t', target_url: 'http://t', strip_listen_path: true, preserve_host_header: true },
    } as unknown as ApiDefinitionSpec;
    expect(fillClassicTemplate(template, fill)).toEqual({
      name: 'ns-front-abc',
      domain: 'shop.example.com',
      use_keyless: false,
      use_standard_auth: true,
      proxy: { listen_path: '/cart', target_url: 'http://web.ns.svc:80', strip_listen_path: true, preserve_host_header: true, listen_path_exact: true },
    });
    expect(template.proxy?.listen_path).toBe('/t'); // the template itself is untouched
    expect(fillClassicTemplate(template, { ...fill, host: '', exact: false })).not.toHaveProperty('domain');
  });

  it('patches an OAS document: name, no id, listen path (strip kept, default false) and its exactness, custom domain, upstream', () => {
    const document = {
      openapi: '3.0.3',
      'x-gw-api-gateway': {
        info: { id: 'fixed', name: 'tpl', state: { active: true } },
        upstream: { url: 'http://t', rateLimit: {} },
        server: { listenPath: { value: '/t/', exact: true }, customDomain: { enabled: true, name: 'old' } },
      },
    };
    expect(fillOasTemplate(document, fill)['x-gw-api-gateway']).toEqual({
      info: { name: 'ns-front-abc', state: { active: true } },
      upstream: { url: 'http://web.ns.svc:80', rateLimit: {} },
      server: { listenPath: { value: '/cart', strip: false, exact: true }, customDomain: { enabled: true, name: 'shop.example.com' } },
    });
    const prefix = fillOasTemplate(document, { ...fill, host: '', exact: false })['x-gw-api-gateway'] as { server: { listenPath: object } };
    expect(prefix.server).not.toHaveProperty('customDomain');
    expect(prefix.server.listenPath).toEqual({ value: '/cart', strip: false }); // Prefix: the template's exactness is not the route's
  });

  it('writes a wildcard host as the one-label host variable, Classic and OAS', () => {
    const wildcard = { ...fill, host: '*.example.com' };
    expect(fillClassicTemplate({ name: 'tpl', proxy: {} }, wildcard).domain).toBe('{?:[^.]+}.example.com');
    const document = { 'x-gw-api-gateway': { info: { name: 'tpl' }, upstream: { url: 'http://t' }, server: { listenPath: { value: '/' } } } };
    expect((fillOasTemplate(document, wildcard)['x-gw-api-gateway'] as { server: { customDomain: unknown } }).server.customDomain).toEqual({
      enabled: true,
      name: '{?:[^.]+}.example.com',
    });
  });

  it('reads the template annotations, refusing an unknown kind', () => {
    const ing = (annotations: Record<string, string>): IngressObject => ({ metadata: { name: 'i', namespace: 'ns', annotations }, spec: {} });
    expect(templateRefOf(ing({}))).toBeUndefined();
    expect(templateRefOf(ing({ 'gw.gw.io/template': 't' }))).toEqual({ kind: 'ApiDefinition', namespace: 'ns', name: 't' });
    expect(templateRefOf(ing({ 'gw.gw.io/template': 't', 'gw.gw.io/template-kind': 'GwOasApiDefinition' }))).toEqual({
      kind: 'GwOasApiDefinition',
      namespace: 'ns',
      name: 't',
    });
    expect(templateRefOf(ing({ 'gw.gw.io/template': 't', 'gw.gw.io/template-kind': 'Foo' }))).toEqual({
      invalid: 'annotation gw.gw.io/template-kind: Foo is neither ApiDefinition nor GwOasApiDefinition',
    });
  });
});
