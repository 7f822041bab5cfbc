// Reading a Tyk OAS definition's plugin fields as Classic ones (oas-plugins.ts): each hook list and its older
// `{plugins}` form, pluginConfig's driver and data, an operation's virtualEndpoint (body or path, functionName or the
// older name, in either operations section); server.authentication.custom as auth_check; entries without `enabled: true` skipped; refusals named by their OAS
// path: what the gateway cannot serve (Go plugins, other drivers, bundles, per-operation postPlugins) and what the
// Classic rules refuse (a name that is no variable, a blob that is not base64, a gRPC hook without a name, an ID
// extractor's field); custom authentication's idExtractor as custom_middleware.id_extractor.
import { describe, expect, it } from 'vitest';
import { readMiddleware, readVirtualEndpoints } from './js-plugins.ts';
import { oasPluginProblem, oasPluginRefusal, oasPluginsAsClassic } from './oas-plugins.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const plugin = (functionName: string, extra: Record<string, unknown> = {}) => ({ enabled: true, functionName, code: `var ${functionName};`, ...extra });

describe('OAS plugin fields read as Classic ones', () => {
  it('maps each hook list onto its custom_middleware list, with the entry fields renamed', () => {
    const { classic } = oasPluginsAsClassic({
      middleware: {
        global: {
          pluginConfig: { driver: 'otto' },
          prePlugins: [{ enabled: true, functionName: 'pre', path: '/p/pre.js', rawBodyOnly: true }],
          postAuthenticationPlugins: [plugin('postAuth', { requireSession: true })],
          postPlugins: [plugin('post')],
          responsePlugins: [plugin('response')],
        },
      },
    });
    const custom = classic.custom_middleware as Record<string, unknown>;
    expect(custom.driver).toBe('otto');
    expect(custom.pre).toEqual([{ disabled: false, name: 'pre', path: '/p/pre.js', code: undefined, raw_body_only: true, require_session: false }]);
    const { hooks } = readMiddleware(classic, {});
    expect(hooks).toEqual({
      pre: [{ name: 'pre', requireSession: false }],
      postKeyAuth: [{ name: 'postAuth', requireSession: true }],
      post: [{ name: 'post', requireSession: false }],
      response: [{ name: 'response', requireSession: false }],
    });
  });

  it('reads the older {plugins} forms, the list winning when both are written', () => {
    const { classic } = oasPluginsAsClassic({
      middleware: { global: { prePlugin: { plugins: [plugin('older')] }, postPlugin: { plugins: [plugin('olderPost')] }, postPlugins: [plugin('newer')] } },
    });
    const { hooks } = readMiddleware(classic, {});
    expect(hooks.pre.map((hook) => hook.name)).toEqual(['older']);
    expect(hooks.post.map((hook) => hook.name)).toEqual(['newer']);
  });

  it('skips entries without enabled: true, as Tyk does', () => {
    const { classic, virtualEndpoints } = oasPluginsAsClassic({
      middleware: {
        global: { prePlugins: [plugin('off', { enabled: false }), { functionName: 'unset', code: 'var unset;' }, plugin('on')] },
        operations: { getV: { virtualEndpoint: { enabled: false, functionName: 'v', body: b64('function v() {}') } } },
      },
    });
    expect(readMiddleware(classic, {}).hooks.pre.map((hook) => hook.name)).toEqual(['on']);
    const [virtual] = virtualEndpoints;
    expect(readVirtualEndpoints([{ ...virtual!.entry, path: '/v' }], virtual!.field, [], {})).toEqual([]);
  });

  it('hands pluginConfig.data.value on as config_data only when data is enabled', () => {
    const read = (data: unknown) => oasPluginsAsClassic({ middleware: { global: { pluginConfig: { driver: 'otto', data } } } }).classic;
    expect(read({ enabled: true, value: { greeting: 'hi' } })).toMatchObject({ config_data: { greeting: 'hi' }, config_data_disabled: false });
    expect(read({ enabled: false, value: { greeting: 'hi' } })).toMatchObject({ config_data_disabled: true });
    expect(read(undefined)).toMatchObject({ config_data_disabled: true });
  });

  it('reads server.authentication.custom as custom_plugin_auth_enabled and the auth_check hook, when authentication is enabled', () => {
    const auth = (authentication: boolean, custom: boolean, config: boolean) =>
      oasPluginsAsClassic({
        server: {
          authentication: { enabled: authentication, custom: { enabled: custom, config: { enabled: config, functionName: 'auth', path: '/p/auth.js' } } },
        },
      }).classic;
    const enabled = auth(true, true, true);
    expect(enabled.custom_plugin_auth_enabled).toBe(true);
    expect(readMiddleware({ ...enabled, custom_middleware: { ...(enabled.custom_middleware as object), driver: 'otto' } }, {}).authCheck).toEqual({
      name: 'auth',
      requireSession: false,
    });
    expect(readMiddleware(auth(true, true, false), {}).authCheck).toBeUndefined();
    expect(auth(true, false, true).custom_plugin_auth_enabled).toBeUndefined();
    expect(auth(false, true, true).custom_plugin_auth_enabled).toBeUndefined();
  });

  it("maps an operation's virtualEndpoint: body as a blob, else path as a file; functionName, else the older name", () => {
    const { virtualEndpoints } = oasPluginsAsClassic({
      middleware: {
        operations: {
          fromBody: { virtualEndpoint: { enabled: true, functionName: 'answer', body: b64('function answer() {}'), requireSession: true, proxyOnError: true } },
          fromFile: { virtualEndpoint: { enabled: true, name: 'older', path: '/p/v.js' } },
        },
      },
      operations: { gwSection: { virtualEndpoint: { enabled: true, functionName: 'gw', body: b64('function gw() {}') } } },
    });
    expect(virtualEndpoints.map(({ operationId, entry }) => [operationId, entry])).toEqual([
      [
        'fromBody',
        {
          disabled: false,
          response_function_name: 'answer',
          function_source_type: 'blob',
          function_source_uri: b64('function answer() {}'),
          use_session: true,
          proxy_on_error: true,
        },
      ],
      [
        'fromFile',
        {
          disabled: false,
          response_function_name: 'older',
          function_source_type: 'file',
          function_source_uri: '/p/v.js',
          use_session: false,
          proxy_on_error: false,
        },
      ],
      ['gwSection', expect.objectContaining({ response_function_name: 'gw', function_source_type: 'blob' })],
    ]);
  });
});

describe('an operation written at both places', () => {
  it("keeps a virtualEndpoint at Tyk's place when gw's place configures another field of the operation, naming its field", () => {
    const { virtualEndpoints, oasFieldOf } = oasPluginsAsClassic({
      middleware: { operations: { both: { virtualEndpoint: { enabled: true, functionName: 'answer', body: b64('function answer() {}') } } } },
      operations: { both: { block: { enabled: true } } },
    });
    expect(virtualEndpoints.map(({ operationId, entry }) => [operationId, entry.response_function_name])).toEqual([['both', 'answer']]);
    expect(oasFieldOf('virtual.both[0].response_function_name')).toBe('middleware.operations.both.virtualEndpoint.functionName');
  });
});

describe('OAS plugin fields refused by name', () => {
  const global = (fields: Record<string, unknown>) => ({ middleware: { global: fields } });

  it('refuses Go plugins and other drivers on pluginConfig.driver', () => {
    expect(oasPluginRefusal(global({ pluginConfig: { driver: 'goplugin' }, prePlugins: [plugin('p')] }))).toEqual({
      field: 'middleware.global.pluginConfig.driver',
      message: 'Go plugins are not supported by this gateway (JavaScript plugins with driver otto are)',
    });
    expect(oasPluginRefusal(global({ pluginConfig: { driver: 'python' } }))?.message).toBe(
      'custom plugins with driver "python" are not supported by this gateway yet (JavaScript plugins use driver otto, gRPC plugins driver grpc)',
    );
    for (const driver of ['otto', 'javascript', 'grpc', undefined]) expect(oasPluginRefusal(global({ pluginConfig: { driver } }))).toBeUndefined();
  });

  it('refuses an enabled bundle and an enabled per-operation postPlugins; disabled ones pass', () => {
    expect(oasPluginRefusal(global({ pluginConfig: { driver: 'otto', bundle: { enabled: true, path: 'b.zip' } } }))?.field).toBe(
      'middleware.global.pluginConfig.bundle',
    );
    expect(oasPluginRefusal(global({ pluginConfig: { bundle: { enabled: false, path: 'b.zip' } } }))).toBeUndefined();
    const postPlugins = (enabled: boolean) => ({ middleware: { operations: { getV: { postPlugins: [{ enabled, functionName: 'f', path: 'f.so' }] } } } });
    expect(oasPluginRefusal(postPlugins(true))?.field).toBe('middleware.operations.getV.postPlugins');
    expect(oasPluginRefusal(postPlugins(false))).toBeUndefined();
  });

  it("reads custom authentication's idExtractor as custom_middleware.id_extractor and names its problems by their OAS path", () => {
    const extractor = (idExtractor: Record<string, unknown>, driver = 'grpc') => ({
      middleware: { global: { pluginConfig: { driver } } },
      server: { authentication: { enabled: true, custom: { enabled: true, config: { enabled: true, functionName: 'Auth', code: 'var Auth;', idExtractor } } } },
    });
    const header = { enabled: true, source: 'header', with: 'value', config: { headerName: 'X-User' } };
    expect(oasPluginRefusal(extractor(header))).toBeUndefined();
    expect(oasPluginsAsClassic(extractor(header)).classic.custom_middleware).toMatchObject({
      id_extractor: { disabled: false, extract_from: 'header', extract_with: 'value', extractor_config: { header_name: 'X-User' } },
    });
    expect(oasPluginProblem(extractor(header))).toBeUndefined();
    expect(oasPluginProblem(extractor({ ...header, config: {} }))?.field).toBe('server.authentication.custom.config.idExtractor.config.headerName');
    expect(oasPluginProblem(extractor({ ...header, with: 'regex', config: { headerName: 'X-User', regexp: '(a' } }))?.field).toBe(
      'server.authentication.custom.config.idExtractor.config.regexp',
    );
    expect(oasPluginProblem(extractor({ ...header, source: 'cookie' }))?.field).toBe('server.authentication.custom.config.idExtractor.source');
    // A JavaScript authentication plugin has no session cache: refused, not ignored.
    expect(oasPluginProblem(extractor(header, 'otto'))?.field).toBe('server.authentication.custom.config.idExtractor');
    expect(oasPluginProblem(extractor({ ...header, enabled: false }, 'otto'))).toBeUndefined();
  });

  it('names the OAS field of what the Classic rules refuse, short of reading files', () => {
    expect(oasPluginProblem(global({ postPlugins: [plugin('ok'), { enabled: true, functionName: 'not a name', code: '' }] }))).toEqual({
      field: 'middleware.global.postPlugins[1].functionName',
      problem: 'must be a JavaScript variable name: not a name',
    });
    expect(oasPluginProblem(global({ prePlugin: { plugins: [{ enabled: true, functionName: 'p', code: 'var p = ;' }] } }))?.field).toBe(
      'middleware.global.prePlugin.plugins[0].code',
    );
    expect(oasPluginProblem(global({ responsePlugins: [{ enabled: true, functionName: 'r' }] }))).toEqual({
      field: 'middleware.global.responsePlugins[0].path',
      problem: 'is required',
    });
    const virtual = (endpoint: Record<string, unknown>) => ({ middleware: { operations: { getV: { virtualEndpoint: { enabled: true, ...endpoint } } } } });
    expect(oasPluginProblem(virtual({ functionName: 'v', body: '%% not base64 %%' }))).toEqual({
      field: 'middleware.operations.getV.virtualEndpoint.body',
      problem: 'must be base64 (function_source_type blob)',
    });
    expect(oasPluginProblem(virtual({ body: b64('function v() {}') }))?.field).toBe('middleware.operations.getV.virtualEndpoint.functionName');
    expect(oasPluginProblem(virtual({ functionName: 'v' }))?.field).toBe('middleware.operations.getV.virtualEndpoint.path');
    expect(oasPluginProblem(global({ pluginConfig: { driver: 'grpc' }, postPlugins: [{ enabled: true, functionName: 'Hook' }, { enabled: true }] }))).toEqual({
      field: 'middleware.global.postPlugins[1].functionName',
      problem: 'a gRPC plugin hook needs a name',
    });
    const customAuth = { server: { authentication: { enabled: true, custom: { enabled: true, config: { enabled: true, path: '/p/auth.js' } } } } };
    expect(oasPluginProblem(customAuth)).toEqual({ field: 'server.authentication.custom.config.functionName', problem: 'is required' });
    expect(oasPluginProblem(global({ prePlugins: [plugin('fine')] }))).toBeUndefined();
  });
});
