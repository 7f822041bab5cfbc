// Reading a definition's gRPC plugins (grpc-spec.ts) and where they are accepted: hooks of each list with disabled
// entries skipped, auth_check taking over authentication only with enable_coprocess_auth (or
// custom_plugin_auth_enabled), config_data handed on; the admission webhook admitting driver grpc; a gateway
// without coprocess_options refusing to serve such an API, naming custom_middleware.driver and coprocess_options.
import { describe, expect, it } from 'vitest';
import { ClassicApiDefinition } from '../../../domain/classic.ts';
import { classicDefinitionProblems } from '../../../definition-rules/classic-definition.ts';
import { classicToSpec } from '../../definition/from-classic.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import { compileRoute } from '../../proxy/compiled-api.ts';

const base = { name: 'g', api_id: 'g', use_keyless: true, proxy: { listen_path: '/g', target_url: 'http://127.0.0.1:9' } };
const load = (extra: Record<string, unknown>) => classicToSpec(ClassicApiDefinition.parse({ ...base, ...extra }), 'g');

describe('gRPC plugins in a Classic definition', () => {
  it('reads each hook list, skipping disabled entries, and config_data', () => {
    const spec = load({
      config_data: { greeting: 'hi' },
      custom_middleware: {
        driver: 'grpc',
        pre: [{ name: 'A' }, { name: 'Off', disabled: true }],
        post_key_auth: [{ name: 'B', raw_body_only: true }],
        post: [{ name: 'C' }],
        response: [{ name: 'D' }],
      },
    });
    expect(spec.grpcPlugins).toEqual({
      pre: [{ name: 'A', rawBodyOnly: false }],
      postKeyAuth: [{ name: 'B', rawBodyOnly: true }],
      post: [{ name: 'C', rawBodyOnly: false }],
      response: [{ name: 'D', rawBodyOnly: false }],
      configData: { greeting: 'hi' },
    });
    expect(spec.plugins).toBeUndefined();
  });

  it('makes auth_check the authentication with enable_coprocess_auth, and only then', () => {
    const auth = { use_keyless: false, custom_middleware: { driver: 'grpc', auth_check: { name: 'Check' } } };
    const withAuth = load({ ...auth, enable_coprocess_auth: true });
    expect(withAuth.grpcPlugins?.auth).toEqual({ name: 'Check', rawBodyOnly: false });
    expect(withAuth.auth).toEqual({ kind: 'none' });
    expect(load({ ...auth, custom_plugin_auth_enabled: true }).grpcPlugins?.auth?.name).toBe('Check');
    const without = load(auth);
    expect(without.grpcPlugins).toBeUndefined();
    expect(without.auth.kind).toBe('token');
  });

  it('refuses a hook without a name, naming it', () => {
    expect(() => load({ custom_middleware: { driver: 'grpc', pre: [{ path: 'x' }] } })).toThrow(
      'custom_middleware.pre[0].name: a gRPC plugin hook needs a name',
    );
  });

  it('passes the definition rules the admission webhook and the loader share', () => {
    const definition = { ...base, custom_middleware: { driver: 'grpc', pre: [{ name: 'A' }] } };
    expect(classicDefinitionProblems(definition, '')).toEqual([]);
  });

  it('is not served by a gateway without coprocess_options, which says what it needs', () => {
    const spec = load({ custom_middleware: { driver: 'grpc', pre: [{ name: 'A' }] } });
    const services = { config: { enforce_org_quotas: false, max_request_body_size: 0, hide_generator_header: false, coprocess_options: {} } };
    expect(() => compileRoute(spec, services as unknown as PipelineServices)).toThrow(
      'custom_middleware.driver: grpc plugins need the gateway option coprocess_options (enable_coprocess and coprocess_grpc_server)',
    );
  });
});
