// Compiling a definition's JavaScript plugins (plugin-spec.ts): hooks and their sources (a file, inline code, a
// blob), disabled entries skipped, config_data handed on unless disabled, one script per API whose id is its hash;
// what refuses the API naming the field (a missing file, a blob that is not base64, an unknown source type); a
// gateway without enable_jsvm refusing to serve an API that uses plugins. OAS plugin fields: definition/oas-plugins.test.ts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClassicApiDefinition } from '../../domain/classic.ts';
import { classicToSpec } from '../definition/from-classic.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import { compileRoute } from '../proxy/compiled-api.ts';

const base = { name: 'js', api_id: 'js', use_keyless: true, proxy: { listen_path: '/js', target_url: 'http://127.0.0.1:9' } };
const load = (extra: Record<string, unknown>) => classicToSpec(ClassicApiDefinition.parse({ ...base, ...extra }), 'js');
const refusal = (extra: Record<string, unknown>): string => {
  try {
    load(extra);
    return 'loaded';
  } catch (error) {
    return (error as Error).message;
  }
};

describe('JavaScript plugins in a definition', () => {
  it('compiles the hooks in order with their sources, skipping disabled entries, with config_data', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-plugin-spec-'));
    writeFileSync(join(dir, 'a.js'), 'var fromFile = 1;');
    const spec = load({
      config_data: { k: 'v' },
      custom_middleware: {
        driver: 'otto',
        pre: [
          { name: 'fromFile', path: join(dir, 'a.js') },
          { name: 'off', path: '/nowhere.js', disabled: true },
        ],
        post: [{ name: 'inline', code: 'var inline = 2;', require_session: true }],
      },
      extended_paths: {
        virtual: [
          {
            path: '/v',
            method: 'get',
            response_function_name: 'v',
            function_source_type: 'blob',
            function_source_uri: Buffer.from('function v() {}').toString('base64'),
          },
        ],
      },
    });
    expect(spec.plugins?.pre).toEqual([{ name: 'fromFile', requireSession: false }]);
    expect(spec.plugins?.post).toEqual([{ name: 'inline', requireSession: true }]);
    expect(spec.plugins?.configData).toEqual({ k: 'v' });
    expect(spec.plugins?.script.source).toBe('var fromFile = 1;\n;\nvar inline = 2;\n;\nfunction v() {}');
    expect(spec.plugins?.script.id).toMatch(/^[0-9a-f]{64}$/);
    expect(spec.versions.get('Default')?.virtualEndpoints?.map((rule) => [rule.method, rule.functionName])).toEqual([['GET', 'v']]);
  });

  it('hands no config_data with config_data_disabled, and has no plugins without middleware or virtual endpoints', () => {
    expect(
      load({ config_data: { k: 'v' }, config_data_disabled: true, custom_middleware: { pre: [{ name: 'p', code: 'var p;' }] } }).plugins?.configData,
    ).toBeUndefined();
    expect(load({ custom_middleware: { driver: 'otto', pre: [], post: [] } }).plugins).toBeUndefined();
  });

  it('refuses a missing file, a blob that is not base64 and an unknown source type, naming the field', () => {
    expect(refusal({ custom_middleware: { pre: [{ name: 'p', path: '/no/such/plugin.js' }] } })).toBe(
      'custom_middleware.pre[0].path: the plugin file cannot be read: /no/such/plugin.js (ENOENT)',
    );
    const virtual = { path: '/v', response_function_name: 'v', function_source_type: 'blob', function_source_uri: 'not base64!' };
    expect(refusal({ extended_paths: { virtual: [virtual] } })).toBe(
      'extended_paths.virtual[0].function_source_uri must be base64 (function_source_type blob)',
    );
    expect(refusal({ extended_paths: { virtual: [{ ...virtual, function_source_type: 'url' }] } })).toBe(
      'extended_paths.virtual[0].function_source_type must be file or blob: url',
    );
    expect(refusal({ custom_middleware: { post: [{ name: 'p', code: 'var p = ;' }] } })).toBe(
      "custom_middleware.post[0].code: the plugin does not compile: Unexpected token ';'",
    );
    expect(refusal({ custom_middleware: { pre: [{ name: 'not a name', code: '' }] } })).toBe(
      'custom_middleware.pre[0].name must be a JavaScript variable name: not a name',
    );
  });
});

describe('a gateway without enable_jsvm', () => {
  it('refuses to serve an API using JavaScript plugins, saying what it needs', () => {
    const spec = load({ custom_middleware: { pre: [{ name: 'p', code: 'var p;' }] } });
    const services = { config: { enforce_org_quotas: false, max_request_body_size: 0, hide_generator_header: false, jsvm_max_body_bytes: 1024 } };
    expect(() => compileRoute(spec, services as unknown as PipelineServices)).toThrow(
      'custom_middleware and virtual endpoints run JavaScript: the gateway needs enable_jsvm',
    );
  });
});
