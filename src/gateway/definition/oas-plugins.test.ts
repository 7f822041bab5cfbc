// A Tyk OAS definition's plugins compiled by the gateway (oas-plugins.ts through from-oas.ts): the same plugins, script
// and config data as the Classic definition they stand for; a virtual endpoint on its operation's path and method;
// custom authentication (server.authentication.custom) replacing the auth token; gRPC hooks with driver grpc; a plugin file that cannot be read and a field the rules refuse named by their OAS path.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClassicApiDefinition } from '../../domain/classic.ts';
import { OasDocument } from '../../domain/oas.ts';
import { classicToSpec } from './from-classic.ts';
import { oasToSpec } from './from-oas.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');

const oas = (middleware: Record<string, unknown>, server: Record<string, unknown> = {}) =>
  OasDocument.parse({
    openapi: '3.0.3',
    info: { title: 'o', version: '1' },
    paths: { '/items/{id}': { post: { operationId: 'postItem', responses: {} } } },
    'x-gw-api-gateway': {
      info: { id: 'o', name: 'o', state: { active: true } },
      upstream: { url: 'http://127.0.0.1:9' },
      server: { listenPath: { value: '/o' }, ...server },
      middleware,
    },
  });

const refusal = (middleware: Record<string, unknown>): string => {
  try {
    oasToSpec(oas(middleware), 'o');
    return 'loaded';
  } catch (error) {
    return (error as Error).message;
  }
};

describe('OAS plugins compiled by the gateway', () => {
  it('compiles the same plugins, script and config data as the Classic definition they stand for', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-oas-plugins-'));
    writeFileSync(join(dir, 'pre.js'), 'var pre = 1;');
    const virtualSource = b64('function answer() {}');
    const spec = oasToSpec(
      oas({
        global: {
          pluginConfig: { driver: 'otto', data: { enabled: true, value: { k: 'v' } } },
          prePlugins: [{ enabled: true, functionName: 'pre', path: join(dir, 'pre.js') }],
          postPlugins: [{ enabled: true, functionName: 'post', code: 'var post = 2;', requireSession: true }],
        },
        operations: { postItem: { virtualEndpoint: { enabled: true, functionName: 'answer', body: virtualSource, proxyOnError: true } } },
      }),
      'o',
    );
    const classic = classicToSpec(
      ClassicApiDefinition.parse({
        name: 'o',
        api_id: 'o',
        use_keyless: true,
        proxy: { listen_path: '/o', target_url: 'http://127.0.0.1:9' },
        config_data: { k: 'v' },
        custom_middleware: {
          driver: 'otto',
          pre: [{ name: 'pre', path: join(dir, 'pre.js') }],
          post: [{ name: 'post', code: 'var post = 2;', require_session: true }],
        },
        extended_paths: {
          virtual: [
            {
              path: '/items/{id}',
              method: 'POST',
              response_function_name: 'answer',
              function_source_type: 'blob',
              function_source_uri: virtualSource,
              proxy_on_error: true,
            },
          ],
        },
      }),
      'o',
    );
    expect(spec.plugins).toEqual(classic.plugins);
    expect(spec.plugins?.configData).toEqual({ k: 'v' });
    const [rule] = spec.versions.get('Default')!.virtualEndpoints!;
    expect(rule).toMatchObject({ method: 'POST', functionName: 'answer', useSession: false, proxyOnError: true });
    expect(rule!.pattern.test('/items/42')).toBe(true);
    expect(rule!.pattern.test('/other')).toBe(false);
    expect(spec.grpcPlugins).toBeUndefined();
  });

  it('has no plugins when every entry is disabled, and no config data unless pluginConfig.data is enabled', () => {
    const spec = oasToSpec(oas({ global: { prePlugins: [{ enabled: false, functionName: 'off', path: '/nowhere.js' }] } }), 'o');
    expect(spec.plugins).toBeUndefined();
    const withoutData = oasToSpec(oas({ global: { prePlugins: [{ enabled: true, functionName: 'p', code: 'var p;' }] } }), 'o');
    expect(withoutData.plugins?.configData).toBeUndefined();
  });

  it('authenticates with the server.authentication.custom plugin instead of the auth token; without config.enabled the auth token stays', () => {
    const custom = (enabled: boolean) => ({
      authentication: { enabled: true, custom: { enabled: true, config: { enabled, functionName: 'auth', code: 'var auth;', requireSession: true } } },
    });
    const plugin = oasToSpec(oas({}, custom(true)), 'o');
    expect(plugin.plugins?.authCheck).toEqual({ name: 'auth', requireSession: true });
    expect(plugin.auth).toEqual({ kind: 'none' });
    const fallback = oasToSpec(oas({}, custom(false)), 'o');
    expect(fallback.plugins).toBeUndefined();
    expect(fallback.auth).toMatchObject({ kind: 'token', headerName: 'Authorization' });
  });

  it('compiles gRPC hooks with driver grpc, rawBodyOnly included', () => {
    const spec = oasToSpec(
      oas({
        global: {
          pluginConfig: { driver: 'grpc', data: { enabled: true, value: { k: 'v' } } },
          prePlugins: [{ enabled: true, functionName: 'AddHeader', rawBodyOnly: true }],
          responsePlugins: [{ enabled: true, functionName: 'SetResponseHeader' }],
        },
      }),
      'o',
    );
    expect(spec.grpcPlugins).toEqual({
      pre: [{ name: 'AddHeader', rawBodyOnly: true }],
      postKeyAuth: [],
      post: [],
      response: [{ name: 'SetResponseHeader', rawBodyOnly: false }],
      configData: { k: 'v' },
    });
    expect(spec.plugins).toBeUndefined();
  });

  it('names the OAS field of a plugin file that cannot be read, and of what the rules refuse', () => {
    expect(refusal({ global: { responsePlugins: [{ enabled: true, functionName: 'r', path: '/no/such/plugin.js' }] } })).toBe(
      'x-gw-api-gateway.middleware.global.responsePlugins[0].path: the plugin file cannot be read: /no/such/plugin.js (ENOENT)',
    );
    expect(refusal({ operations: { postItem: { virtualEndpoint: { enabled: true, functionName: 'v', path: '/no/such/virtual.js' } } } })).toBe(
      'x-gw-api-gateway.middleware.operations.postItem.virtualEndpoint.path: the plugin file cannot be read: /no/such/virtual.js (ENOENT)',
    );
    expect(refusal({ global: { prePlugins: [{ enabled: true, functionName: 'not a name', code: '' }] } })).toBe(
      'x-gw-api-gateway.middleware.global.prePlugins[0].functionName must be a JavaScript variable name: not a name',
    );
    expect(refusal({ global: { pluginConfig: { driver: 'goplugin' } } })).toBe(
      'x-gw-api-gateway.middleware.global.pluginConfig.driver: Go plugins are not supported by this gateway (JavaScript plugins with driver otto are)',
    );
  });
});
