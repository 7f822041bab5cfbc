// Fields refused by name (unsupported-fields.ts): the gateway's loader and the ApiDefinition admission webhook both
// refuse each one while in use, naming the field, and both accept it at its default, so Tyk's samples still load.
import { describe, expect, it } from 'vitest';
import { classicToSpec } from '../gateway/definition/from-classic.ts';
import { validateApiDefinition } from '../operator/webhooks/apidefinition.ts';
import { describeFieldError } from '../operator/webhooks/field-errors.ts';
import { ClassicApiDefinition } from './classic.ts';

const base = { name: 'httpbin', use_keyless: true, proxy: { listen_path: '/httpbin/', target_url: 'http://127.0.0.1:8000' } };

/** A field refused while in use: the definition that uses it, the one at its default, and what the gateway says. */
const REFUSALS = [
  {
    field: 'proxy.disable_strip_slash',
    inUse: { ...base, proxy: { ...base.proxy, disable_strip_slash: true } },
    atDefault: { ...base, proxy: { ...base.proxy, disable_strip_slash: false } },
    message: 'proxy.disable_strip_slash: keeping the slash after a stripped listen path is not supported by this gateway yet',
  },
  {
    field: 'definition.url_versioning_pattern',
    inUse: { ...base, definition: { location: 'url', url_versioning_pattern: '^v\\d+$' } },
    atDefault: { ...base, definition: { location: 'header', key: 'x-api-version', url_versioning_pattern: '' } },
    message: 'definition.url_versioning_pattern: a pattern for url-located versions is not supported by this gateway yet',
  },
  {
    field: 'session_lifetime',
    inUse: { ...base, session_lifetime: 3600 },
    atDefault: { ...base, session_lifetime: 0 },
    message: 'session_lifetime: a lifetime for the keys of an API is not supported by this gateway yet',
  },
  {
    field: 'custom_middleware',
    inUse: { ...base, custom_middleware: { driver: 'goplugin', pre: [{ name: 'AddHeader', path: 'plugin.so' }] } },
    atDefault: { ...base, custom_middleware: { driver: 'goplugin', pre: [], post: [], auth_check: { name: '' } } },
    message: 'custom_middleware: Go plugins are not supported by this gateway (JavaScript plugins with driver otto are)',
  },
  {
    field: 'use_go_plugin_auth',
    inUse: { ...base, use_go_plugin_auth: true },
    atDefault: { ...base, use_go_plugin_auth: false },
    message: 'use_go_plugin_auth: Go plugins are not supported by this gateway (JavaScript plugins with driver otto are)',
  },
  {
    field: 'analytics_plugin',
    inUse: { ...base, analytics_plugin: { enable: true, plugin_path: 'analytics.so', func_name: 'MaskAnalyticsData' } },
    atDefault: { ...base, analytics_plugin: { enable: false, plugin_path: '', func_name: '' } },
    message: 'analytics_plugin: Go plugins are not supported by this gateway (JavaScript plugins with driver otto are)',
  },
  {
    field: 'custom_middleware',
    inUse: { ...base, custom_middleware: { driver: 'python', pre: [{ name: 'MyPreHook' }] } },
    atDefault: { ...base, custom_middleware: { driver: 'python', pre: [] } },
    message:
      'custom_middleware: custom middleware plugins with driver "python" are not supported by this gateway yet (JavaScript plugins use driver otto, gRPC plugins driver grpc)',
  },
  {
    field: 'custom_middleware',
    inUse: { ...base, custom_middleware: { driver: 'python', auth_check: { name: 'myAuth', path: 'auth.py' } } },
    atDefault: { ...base, custom_middleware: { driver: 'python', auth_check: { name: '', path: '' } } },
    message:
      'custom_middleware: custom middleware plugins with driver "python" are not supported by this gateway yet (JavaScript plugins use driver otto, gRPC plugins driver grpc)',
  },
];

function gatewayLoads(definition: unknown): string {
  try {
    classicToSpec(ClassicApiDefinition.parse(definition), 'a1');
    return 'loaded';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('fields refused by name', () => {
  for (const { field, inUse, atDefault, message } of REFUSALS) {
    it(`the gateway refuses ${field} in use, naming it, and loads it at its default`, () => {
      expect(gatewayLoads(inUse)).toBe(message);
      expect(gatewayLoads(atDefault)).toBe('loaded');
    });

    it(`the admission webhook refuses spec.${field} in use and admits it at its default`, () => {
      expect(validateApiDefinition(inUse).errors.map(describeFieldError)).toEqual([`spec.${message.replace(': ', ': Forbidden: ')}`]);
      expect(validateApiDefinition(atDefault).errors.map(describeFieldError)).toEqual([]);
    });
  }
});
