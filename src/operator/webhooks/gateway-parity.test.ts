// The admission webhook restates what the gateway refuses (gateway-rules.ts) because the operator may not import the
// gateway. This test may: it sends each definition both ways (through defaulting + validation, and through the
// operator's translation into the gateway's own loader: parseClassic, checkApiId, compileApi) and fails the moment
// the two disagree, e.g. when the gateway learns JWT and the webhook still refuses it.
import { describe, expect, it } from 'vitest';
import type { ApiDefinitionSpec } from '../../api/crd/apidefinition.ts';
import { checkApiId, compileApi, parseClassic } from '../../gateway/definition/compile.ts';
import type { StoredApi } from '../../gateway/store/store.ts';
import { apiDefinitionPayload } from '../translate/apidefinition.ts';
import { defaultApiDefinition, validateApiDefinition } from './apidefinition.ts';
import { applyPatch } from './json-patch.ts';

const base = { name: 'parity', use_keyless: true, proxy: { listen_path: '/parity', target_url: 'http://127.0.0.1:9' } };
const transform = { path: '/x', method: 'POST', template_data: { input_type: 'json', template_mode: 'blob', template_source: 'e30=' } };

const CASES: Record<string, Record<string, unknown>> = {
  'keyless': base,
  'standard auth': { ...base, use_keyless: false, use_standard_auth: true },
  'token auth by default (neither flag)': { ...base, use_keyless: undefined },
  'keyless and standard auth': { ...base, use_standard_auth: true },
  'jwt': { ...base, use_keyless: false, enable_jwt: true },
  'basic auth': { ...base, use_keyless: false, use_basic_auth: true },
  'basic auth with credentials from the body': { ...base, use_keyless: false, use_basic_auth: true, basic_auth: { extract_from_body: true, body_user_regexp: 'u=(\\w+)', body_password_regexp: 'p=(\\w+)' } },
  'basic auth with a body regexp without a group': { ...base, use_keyless: false, use_basic_auth: true, basic_auth: { extract_from_body: true, body_user_regexp: 'u=\\w+', body_password_regexp: 'p=(\\w+)' } },
  'basic auth with credentials from the body but no regexps': { ...base, use_keyless: false, use_basic_auth: true, basic_auth: { extract_from_body: true } },
  'jwt with an hmac secret': { ...base, use_keyless: false, enable_jwt: true, jwt_signing_method: 'hmac', jwt_source: 'c2VjcmV0' },
  'jwt with a JWKS URL': { ...base, use_keyless: false, enable_jwt: true, jwt_signing_method: 'rsa', jwt_source: 'https://idp.example.com/.well-known/jwks.json' },
  'jwt with a base64 JWKS URL': { ...base, use_keyless: false, enable_jwt: true, jwt_signing_method: 'ecdsa', jwt_source: Buffer.from('https://idp.example.com/jwks').toString('base64') },
  'jwt rsa with a source that is no key': { ...base, use_keyless: false, enable_jwt: true, jwt_signing_method: 'rsa', jwt_source: 'c2VjcmV0' },
  'jwt with a source that is not base64': { ...base, use_keyless: false, enable_jwt: true, jwt_source: 'not base64!' },
  'jwt with an unknown signing method': { ...base, use_keyless: false, enable_jwt: true, jwt_signing_method: 'rsa-pss', jwt_source: 'c2VjcmV0' },
  'jwt and basic auth, identity from the jwt': { ...base, use_keyless: false, enable_jwt: true, jwt_source: 'c2VjcmV0', use_basic_auth: true, base_identity_provided_by: 'jwt_claim' },
  'unknown base identity': { ...base, use_keyless: false, use_basic_auth: true, base_identity_provided_by: 'oidc_user' },
  'keyless ignores the base identity': { ...base, base_identity_provided_by: 'oidc_user' },
  'mutual tls': { ...base, use_keyless: false, use_mutual_tls_auth: true },
  'certificate-derived keys': { ...base, use_keyless: false, auth_configs: { authToken: { use_certificate: true } } },
  'legacy auth with signature validation': { ...base, use_keyless: false, auth: { validate_signature: true } },
  'keyless ignores token options': { ...base, auth: { use_certificate: true } },
  'cluster service target': { ...base, proxy: { listen_path: '/p', target_url: 'httpbin.default.svc:8000' } },
  'https target with base path': { ...base, proxy: { listen_path: '/p', target_url: 'https://example.com/base/' } },
  'bare host target': { ...base, proxy: { listen_path: '/p', target_url: 'example.com' } },
  'ftp target': { ...base, proxy: { listen_path: '/p', target_url: 'ftp://example.com' } },
  'target with credentials': { ...base, proxy: { listen_path: '/p', target_url: 'http://u:p@example.com' } },
  'unparseable target': { ...base, proxy: { listen_path: '/p', target_url: 'http://exa mple' } },
  'no target': { ...base, proxy: { listen_path: '/p' } },
  'no listen path': { ...base, proxy: { target_url: 'http://a' } },
  'relative listen path': { ...base, proxy: { listen_path: 'p', target_url: 'http://a' } },
  'listen path with a wildcard': { ...base, proxy: { listen_path: '/p/{id}', target_url: 'http://a' } },
  'listen path with dot segments': { ...base, proxy: { listen_path: '/p/../q', target_url: 'http://a' } },
  'root listen path': { ...base, proxy: { listen_path: '/', target_url: 'http://a' } },
  'bad api_id': { ...base, api_id: 'a/b' },
  'good api_id': { ...base, api_id: 'my-api.v1' },
  'versions with a default': { ...base, version_data: { not_versioned: true, default_version: 'v2', versions: { v1: { name: 'v1' }, v2: { name: 'v2' } } } },
  'default version that does not exist': { ...base, version_data: { default_version: 'v3', versions: { v1: { name: 'v1' } } } },
  'default version without versions': { ...base, version_data: { default_version: 'v3' } },
  'several unversioned versions without a default': { ...base, version_data: { not_versioned: true, versions: { v1: { name: 'v1' }, v2: { name: 'v2' } } } },
  'versioned API without a default': { ...base, version_data: { not_versioned: false, versions: { v1: { name: 'v1' }, v2: { name: 'v2' } } } },
  'bad version expiry': { ...base, version_data: { versions: { v1: { name: 'v1', expires: 'soon' } } } },
  'good version expiry': { ...base, version_data: { versions: { v1: { name: 'v1', expires: '2030-01-02 15:04' } } } },
  'bad override target': { ...base, version_data: { versions: { v1: { name: 'v1', override_target: 'gopher://x' } } } },
  'transform': { ...base, extended_paths: { transform: [transform] } },
  'disabled transform': { ...base, extended_paths: { transform: [{ ...transform, disabled: true }] } },
  'transform in a version': { ...base, version_data: { versions: { v1: { name: 'v1', extended_paths: { transform: [transform] } } } } },
  'transform the versions do not use': { ...base, extended_paths: { transform: [transform] }, version_data: { versions: { v1: { name: 'v1', extended_paths: {} } } } },
  'header transforms': { ...base, extended_paths: { transform_headers: [{ path: '/x', method: 'GET', delete_headers: ['X-A'], add_headers: { 'X-B': '$tyk_context.path' } }], transform_response_headers: [{ path: '/x', method: 'GET', add_headers: { 'X-C': 'c' } }] } },
  'header transform with a bad name': { ...base, extended_paths: { transform_headers: [{ path: '/x', method: 'GET', add_headers: { 'X B': 'b' } }] } },
  'response header transform with a bad delete name': { ...base, extended_paths: { transform_response_headers: [{ path: '/x', method: 'GET', delete_headers: ['a:b'] }] } },
  'header transform with a control character': { ...base, extended_paths: { transform_headers: [{ path: '/x', method: 'GET', add_headers: { 'X-B': 'a\nb' } }] } },
  'disabled header transform with a bad name': { ...base, extended_paths: { transform_headers: [{ path: '/x', method: 'GET', disabled: true, add_headers: { 'X B': 'b' } }] } },
  'url rewrite with triggers': { ...base, extended_paths: { url_rewrites: [{ path: '/a', method: 'GET', match_pattern: '/a/(\\w+)', rewrite_to: '/b/$1', triggers: [{ on: 'all', options: { header_matches: { 'X-A': { match_rx: 'x' } }, payload_matches: { match_rx: 'y' } }, rewrite_to: '/c' }] }] } },
  'url rewrite with an invalid pattern': { ...base, extended_paths: { url_rewrites: [{ path: '/a', method: 'GET', match_pattern: '/a/(', rewrite_to: '/b' }] } },
  'url rewrite with an unbounded pattern': { ...base, extended_paths: { url_rewrites: [{ path: '/a', method: 'GET', match_pattern: '(a+)+', rewrite_to: '/b' }] } },
  'url rewrite with an invalid trigger pattern': { ...base, extended_paths: { url_rewrites: [{ path: '/a', method: 'GET', match_pattern: '/a', rewrite_to: '/b', triggers: [{ on: 'any', options: { query_val_matches: { q: { match_rx: '[' } } }, rewrite_to: '/c' }] }] } },
  'url rewrite with an invalid payload pattern': { ...base, extended_paths: { url_rewrites: [{ path: '/a', method: 'GET', match_pattern: '/a', rewrite_to: '/b', triggers: [{ on: 'any', options: { payload_matches: { match_rx: '(?<=x)' } }, rewrite_to: '/c' }] }] } },
  'url rewrite looping into the gateway': { ...base, extended_paths: { url_rewrites: [{ path: '/a', method: 'GET', match_pattern: '/a', rewrite_to: 'tyk://self/b' }] } },
  'url rewrite to another host': { ...base, extended_paths: { url_rewrites: [{ path: '/a', method: 'GET', match_pattern: '/a', rewrite_to: '/b', triggers: [{ on: 'any', options: {}, rewrite_to: 'https://elsewhere/b' }] }] } },
  'response transform': { ...base, response_processors: [{ name: 'response_body_transform' }], extended_paths: { transform_response: [{ ...transform, method: 'GET' }] } },
  'response transform without the processor': { ...base, extended_paths: { transform_response: [{ ...transform, method: 'GET' }] } },
  'disabled response transform without the processor': { ...base, extended_paths: { transform_response: [{ ...transform, method: 'GET', disabled: true }] } },
  'response transform in a version without the processor': { ...base, version_data: { versions: { v1: { name: 'v1', extended_paths: { transform_response: [transform] } } } } },
  'response transform that is not base64': { ...base, response_processors: [{ name: 'response_body_transform' }], extended_paths: { transform_response: [{ ...transform, template_data: { ...transform.template_data, template_source: 'not base64!' } }] } },
  'header injector processor': { ...base, response_processors: [{ name: 'header_injector' }] },
  'unknown response processor': { ...base, response_processors: [{ name: 'header_transform' }] },
  'white list entry without path': { ...base, extended_paths: { white_list: [{ path: '' }] } },
  'certificates from Secrets': { ...base, certificate_secret_names: ['tls'] },
};

function gatewayAccepts(spec: Record<string, unknown>): boolean {
  try {
    const payload = apiDefinitionPayload('ns', 'parity', spec as ApiDefinitionSpec, 'org');
    const definition = parseClassic(payload);
    checkApiId(payload.api_id as string);
    const stored: StoredApi = { id: payload.api_id as string, format: 'classic', definition };
    compileApi(stored);
    return true;
  } catch {
    return false;
  }
}

function webhookAccepts(spec: Record<string, unknown>): boolean {
  const defaulted = applyPatch({ spec }, defaultApiDefinition(spec)).spec;
  return validateApiDefinition(defaulted).errors.length === 0;
}

describe('the webhook accepts exactly the ApiDefinitions the gateway loads', () => {
  for (const [name, spec] of Object.entries(CASES)) {
    it(name, () => {
      const clean = JSON.parse(JSON.stringify(spec)) as Record<string, unknown>;
      expect(webhookAccepts(clean)).toBe(gatewayAccepts(clean));
    });
  }

  it('covers accepted and refused definitions alike', () => {
    const outcomes = Object.values(CASES).map((spec) => gatewayAccepts(JSON.parse(JSON.stringify(spec)) as Record<string, unknown>));
    expect(outcomes.filter(Boolean).length).toBeGreaterThan(8);
    expect(outcomes.filter((ok) => !ok).length).toBeGreaterThan(15);
  });
});
