// OpenAPI 2.0 / 3.0 import: naming, listen paths, upstream rules, endpoints, refusals.
import { describe, expect, it } from 'vitest';
import { classicToSpec } from '../gateway/definition/from-classic.ts';
import { CLI_FLAGS, DASHBOARD_FIELDS, ImportError } from './errors.ts';
import { importApi } from './import.ts';

const swagger2 = {
  swagger: '2.0',
  info: { title: 'Pet Shop', version: ' 1.2.3 ' },
  host: 'pets.example.com',
  basePath: '/v2',
  schemes: ['https'],
  paths: {
    '/pets': { get: {}, post: {}, parameters: [] },
    '/pets/{petId}': { get: {}, delete: {} },
    '/pets/{petId}/photo': { put: {} },
    'x-extension': { get: {} },
  },
};

const openapi3 = {
  openapi: '3.0.3',
  info: { title: 'Orders API', version: '2024-01' },
  servers: [{ url: '{scheme}://orders.example.com:{port}/api', variables: { scheme: { default: 'https' }, port: { default: 8443 } } }],
  paths: { '/orders': { get: {} }, '/orders/{id}': { patch: {}, summary: 'x' } },
};

async function caught(run: () => Promise<unknown>): Promise<ImportError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ImportError) return error;
    throw error;
  }
  throw new Error('expected an ImportError');
}

describe('OpenAPI 2.0', () => {
  it('maps info, basePath and paths x methods into one default version', async () => {
    const { definition, warnings } = await importApi(
      { format: 'swagger', document: JSON.stringify(swagger2) },
      { upstreamUrl: 'http://upstream:8080', orgId: 'org1', apiId: 'a1' },
    );
    expect(definition).toMatchObject({
      name: 'Pet Shop',
      api_id: 'a1',
      org_id: 'org1',
      active: true,
      use_keyless: true,
      proxy: { listen_path: '/v2/', target_url: 'http://upstream:8080', strip_listen_path: true },
      definition: { location: 'header', key: 'x-api-version' },
      version_data: { not_versioned: false, default_version: '1.2.3' },
    });
    const list = definition.version_data!.versions!['1.2.3']!.extended_paths!.white_list!;
    expect(list.map((entry) => [entry.path, Object.keys(entry.method_actions!)])).toEqual([
      ['/pets/{petId}/photo', ['PUT']],
      ['/pets/{petId}', ['GET', 'DELETE']],
      ['/pets', ['GET', 'POST']],
    ]);
    expect(list[2]!.method_actions!.GET).toEqual({ action: 'no_action' });
    expect(warnings.join('\n')).toMatch(/keyless/);
    expect(() => classicToSpec(definition, 'a1')).not.toThrow();
  });

  it('requires an upstream URL and names it (with a hint from host and basePath)', async () => {
    const error = await caught(() => importApi({ format: 'swagger', document: swagger2 }));
    expect(error.parameter).toBe('upstreamUrl');
    expect(error.describe(CLI_FLAGS)).toMatch(/OpenAPI 2\.0 imports need an upstream URL.*https:\/\/pets\.example\.com\/v2.*set --upstream-target$/);
    expect(error.describe(DASHBOARD_FIELDS)).toMatch(/set upstream_url$/);
    expect(error.message).toMatch(/upstream_url \(--upstream-target\)/);
  });

  it('refuses an upstream that is not an absolute http(s) URL', async () => {
    expect((await caught(() => importApi({ format: 'swagger', document: swagger2 }, { upstreamUrl: '/relative' }))).describe(CLI_FLAGS)).toBe(
      '--upstream-target is a relative URL, not an upstream: /relative',
    );
    expect((await caught(() => importApi({ format: 'swagger', document: swagger2 }, { upstreamUrl: 'ftp://x' }))).parameter).toBe('upstreamUrl');
  });

  it('listens on the title slug when basePath is the root, and takes the given version name', async () => {
    const { definition } = await importApi({ format: 'swagger', document: { ...swagger2, basePath: '/' } }, { upstreamUrl: 'http://u', versionName: 'beta' });
    expect(definition.proxy?.listen_path).toBe('/pet-shop/');
    expect(Object.keys(definition.version_data!.versions!)).toEqual(['beta']);
  });

  it('refuses mocks, Swagger 1.x and documents that are not OpenAPI', async () => {
    expect((await caught(() => importApi({ format: 'swagger', document: swagger2 }, { asMock: true, upstreamUrl: 'http://u' }))).describe(CLI_FLAGS)).toMatch(
      /^Swagger imports cannot create mocks: --as-mock/,
    );
    expect((await caught(() => importApi({ format: 'swagger', document: { swaggerVersion: '1.2', apis: [] } }))).message).toMatch(
      /Swagger 1\.2 documents are not supported/,
    );
    expect((await caught(() => importApi({ format: 'swagger', document: '{"info":{}}' }))).message).toMatch(/neither `swagger: "2.0"` nor `openapi/);
    expect((await caught(() => importApi({ format: 'swagger', document: '{not json' }))).message).toMatch(/not a valid OpenAPI\/Swagger JSON document/);
    expect((await caught(() => importApi({ format: 'swagger', document: { swagger: '2.0', info: { version: '1' }, paths: {} } }))).message).toMatch(
      /info\.title/,
    );
  });
});

describe('OpenAPI 3.0', () => {
  it('takes the upstream from servers[0] with variable defaults and listens on the title slug, saying so', async () => {
    const { definition, warnings } = await importApi({ format: 'swagger', document: openapi3 });
    expect(definition.proxy).toEqual({ listen_path: '/orders-api/', target_url: 'https://orders.example.com:8443/api', strip_listen_path: true });
    expect(Object.keys(definition.version_data!.versions!)).toEqual(['2024-01']);
    expect(warnings.some((w) => w.includes('no listen path') && w.includes('/orders-api/'))).toBe(true);
    expect(() => classicToSpec(definition, 'x')).not.toThrow();
  });

  it('prefers the upstream option; a relative server URL is not an upstream', async () => {
    expect((await importApi({ format: 'swagger', document: openapi3 }, { upstreamUrl: 'http://mine:1' })).definition.proxy?.target_url).toBe('http://mine:1');
    const relative = { ...openapi3, servers: [{ url: '/api/v3' }] };
    const error = await caught(() => importApi({ format: 'swagger', document: relative }));
    expect(error.describe(CLI_FLAGS)).toBe(
      'OpenAPI 3.0 imports need an upstream URL: servers[0].url is a relative URL, not an upstream: /api/v3; set --upstream-target',
    );
    const none = await caught(() => importApi({ format: 'swagger', document: { ...openapi3, servers: undefined } }));
    expect(none.message).toMatch(/the document has no servers/);
  });

  it('reads OpenAPI 3.1 the same way, with a warning', async () => {
    const { warnings } = await importApi({ format: 'swagger', document: { ...openapi3, openapi: '3.1.0' } });
    expect(warnings[0]).toMatch(/OpenAPI 3\.1\.0 is read as OpenAPI 3\.0/);
  });
});

describe('OpenAPI documents in YAML and with $refs', () => {
  const routes = (definition: Awaited<ReturnType<typeof importApi>>['definition']) =>
    Object.values(definition.version_data?.versions ?? {}).flatMap((version) =>
      (version.extended_paths?.white_list ?? []).flatMap((entry) => Object.keys(entry.method_actions ?? {}).map((method) => `${method} ${entry.path}`)),
    );

  it('reads a YAML document', async () => {
    const yaml = [
      'openapi: 3.0.3',
      'info:',
      '  title: Yaml Shop',
      '  version: "1"',
      'servers:',
      '  - url: http://yaml.example:8080',
      'paths:',
      '  /items:',
      '    get: {}',
      '    post: {}',
      '',
    ].join('\n');
    const { definition } = await importApi({ format: 'swagger', document: yaml });
    expect(definition.name).toBe('Yaml Shop');
    expect(definition.proxy?.target_url).toBe('http://yaml.example:8080');
    expect(routes(definition).sort()).toEqual(['GET /items', 'POST /items']);
  });

  it('follows a $ref path item inside the document', async () => {
    const doc = {
      ...openapi3,
      paths: { '/orders': { get: {} }, '/orders/{id}': { $ref: '#/components/pathItems/Order' } },
      components: { pathItems: { Order: { get: {}, delete: {} } }, schemas: { Tree: { properties: { child: { $ref: '#/components/schemas/Tree' } } } } },
    };
    const { definition, warnings } = await importApi({ format: 'swagger', document: JSON.stringify(doc) });
    expect(routes(definition).sort()).toEqual(['DELETE /orders/{id}', 'GET /orders', 'GET /orders/{id}']);
    expect(warnings.join('\n')).not.toMatch(/\$ref/);
  });

  it('refuses an external $ref, naming it and where it is, without fetching it', async () => {
    for (const ref of ['./other.yaml#/paths/~1x', 'http://127.0.0.1:1/spec.json', 'file:///etc/passwd']) {
      const doc = { ...swagger2, paths: { '/pets': { get: {} }, '/remote': { $ref: ref } } };
      const error = await caught(() => importApi({ format: 'swagger', document: doc }, { upstreamUrl: 'http://u' }));
      expect(error.parameter).toBe('document');
      expect(error.message).toBe(`external $ref "${ref}" at paths./remote is refused: only references inside the document (#/...) are followed`);
    }
  });

  it('reads the legacy Swagger 2.0 `$ref: "Name"` as #/definitions/Name (as Swagger UI does)', async () => {
    const doc = { ...swagger2, paths: { '/users': { get: { responses: { 200: { schema: { $ref: 'User' } } } } } }, definitions: { User: { type: 'object' } } };
    expect(routes((await importApi({ format: 'swagger', document: JSON.stringify(doc) }, { upstreamUrl: 'http://u' })).definition)).toEqual(['GET /users']);
    const unknown = JSON.stringify({ ...doc, definitions: {} });
    expect((await caught(() => importApi({ format: 'swagger', document: unknown }, { upstreamUrl: 'http://u' }))).message).toMatch(
      /external \$ref "User" at paths\.\/users\.get\.responses\.200\.schema is refused/,
    );
  });

  it('refuses a dangling internal $ref with a 4xx-able ImportError', async () => {
    const doc = { ...openapi3, paths: { '/x': { $ref: '#/components/pathItems/Missing' } } };
    expect((await caught(() => importApi({ format: 'swagger', document: doc }))).message).toMatch(/a \$ref cannot be resolved/);
  });

  it('refuses more operations than maxOperations, naming the limit', async () => {
    const error = await caught(() => importApi({ format: 'swagger', document: swagger2 }, { upstreamUrl: 'http://u', maxOperations: 3 }));
    expect(error.parameter).toBe('maxOperations');
    expect(error.describe(DASHBOARD_FIELDS)).toBe('the document describes 5 operations (path x method); at most 3 are accepted: import_max_operations');
  });
});
