// The CRDs on a real apiserver: they install with server-side apply, accept a valid object of every kind without
// pruning a field, print gw's documented columns, and reject invalid objects with the apiserver's message naming the field.
import { beforeAll, describe, expect, it } from 'vitest';
import { installCrds } from '../support/crds.ts';
import { kubectl, useNamespace } from '../support/kubectl.ts';

type Manifest = { apiVersion: string; kind: string; metadata: { name: string }; spec: Record<string, unknown> };

const object = (kind: string, name: string, spec: Record<string, unknown>): Manifest => ({
  apiVersion: 'gw.gw.io/v1alpha1',
  kind,
  metadata: { name },
  spec,
});

/** One valid object per kind, using every part of the schema that has structure of its own. */
const valid: Manifest[] = [
  object('ApiDefinition', 'httpbin', {
    name: 'httpbin',
    protocol: 'http',
    active: true,
    use_keyless: false,
    use_standard_auth: true,
    domain: 'api.example.com',
    proxy: { target_url: 'http://httpbin.default.svc:8000', listen_path: '/httpbin/', strip_listen_path: true },
    auth_configs: {
      authToken: {
        auth_header_name: 'Authorization',
        use_cookie: true,
        cookie_name: 'session',
        use_param: true,
        param_name: 'key',
        use_certificate: false,
        validate_signature: true,
        signature: { algorithm: 'MasherySHA256', header: 'X-Signature', secret: 'shh', allowed_clock_skew: 10, error_code: 401 },
      },
    },
    strip_auth_data: true,
    definition: { location: 'header', key: 'x-api-version' },
    version_data: {
      not_versioned: false,
      default_version: 'v1',
      versions: { v1: { name: 'v1', use_extended_paths: true }, v2: { name: 'v2', expires: '2030-01-01 00:00' } },
    },
    extended_paths: {
      hard_timeouts: [{ path: '/delay/{n}', method: 'GET', timeout: 2 }],
      transform: [
        { path: '/post', method: 'POST', template_data: { input_type: 'json', enable_session: true, template_mode: 'blob', template_source: 'e3sgLiB9fQ==' } },
      ],
      white_list: [{ path: '/status/{code}', method_actions: { GET: { action: 'reply', code: 200, data: 'ok', headers: { 'x-mock': 'yes' } } } }],
      black_list: [{ path: '/admin', method: 'GET' }],
      ignored: [{ path: '/health', method: 'GET' }],
      circuit_breakers: [
        { path: '/status/{code}', method: 'GET', threshold_percent: 0.5, samples: 5, return_to_service_after: 10, disable_half_open_state: true },
      ],
      cache: ['/get'],
      advance_cache_config: [{ path: '/ip', method: 'GET', cache_response_codes: [200], cache_key_regex: 'id=\\d+', timeout: 30 }],
    },
    cache_options: {
      enable_cache: true,
      cache_timeout: 60,
      cache_all_safe_requests: false,
      cache_response_codes: [200],
      enable_upstream_cache_control: false,
      cache_control_ttl_header: 'X-Ttl',
      cache_by_headers: ['X-Tenant'],
    },
    config_data: { anything: { nested: [1, 'two'] } },
    contextRef: { name: 'staging', namespace: 'gw-contexts' },
  }),
  object('ApiDefinition', 'jwt-api', {
    name: 'jwt-api',
    enable_jwt: true,
    jwt_signing_method: 'ecdsa',
    jwt_source: 'LS0tLS1CRUdJTi==',
    jwt_identity_base_field: 'sub',
    jwt_policy_field_name: 'pol',
    jwt_default_policies: ['default/gold'],
    proxy: { target_url: 'http://upstream', listen_path: '/jwt' },
  }),
  object('GwOasApiDefinition', 'petstore', {
    gwOAS: { configmapRef: { name: 'petstore-oas', namespace: 'apis', keyName: 'oas.json' } },
    contextRef: { name: 'prod' },
    clientCertificate: { enabled: true, allowlist: ['client-ca'] },
  }),
  object('GwStreamsApiDefinition', 'events', { gwStreams: { configmapRef: { name: 'events', keyName: 'streams.json' } } }),
  object('SecurityPolicy', 'gold', {
    name: 'Gold plan',
    state: 'draft',
    access_rights_array: [
      { name: 'httpbin', namespace: 'default', kind: 'ApiDefinition', versions: ['v1'], allowed_urls: [{ url: '/get', methods: ['GET'] }] },
      { name: 'petstore', kind: 'GwOasApiDefinition', limit: { rate: 5, per: 1, quota_max: 100, quota_renewal_rate: 3600 } },
    ],
    rate: 10,
    per: 60,
    quota_max: -1,
    quota_renewal_rate: 3600,
    throttle_interval: 0.5,
    throttle_retry_limit: 3,
    tags: ['Gold'],
    meta_data: { tier: 'gold', limits: { burst: 2 } },
    key_expires_in: 86400,
    partitions: { quota: true, rate_limit: true },
  }),
  object('OperatorContext', 'prod', {
    env: {
      mode: 'pro',
      url: 'https://dashboard.example.com',
      org: 'org-1',
      insecureSkipVerify: true,
      ingress: { httpPort: 8080, httpsPort: 8443 },
      user_owners: ['u1'],
    },
    secretRef: { name: 'gw-prod-credentials' },
  }),
  object('SubGraph', 'users', { schema: 'type Query { me: User }', sdl: 'extend type Query { me: User }', unmodelled: { kept: true } }),
  object('SuperGraph', 'social', { subgraph_refs: [{ name: 'users' }], schema: 'type Query { me: User }' }),
  object('APIDescription', 'httpbin-docs', {
    name: 'httpbin',
    show: true,
    documentation: { doc_type: 'swagger', documentation: 'e30=' },
    policyRef: { name: 'gold' },
  }),
  object('PortalAPICatalogue', 'catalogue', { email: 'apis@example.com', apis: [{ apiDescriptionRef: { name: 'httpbin-docs' }, show: true }] }),
  object('PortalConfig', 'portal', { require_key_approval: true, signup_fields: ['company'] }),
];

const apply = (manifest: unknown, namespace: string) =>
  kubectl(['apply', '--server-side', '--field-manager=gw-tests', '-n', namespace, '-f', '-'], { input: JSON.stringify(manifest), allowFailure: true });

describe('CRDs on a real apiserver', () => {
  const ns = useNamespace('crd');
  beforeAll(installCrds);

  it('accepts a valid object of every kind and keeps every field of it', async () => {
    expect(new Set(valid.map((m) => m.kind)).size).toBe(10);
    for (const manifest of valid) {
      const result = await apply(manifest, ns.name);
      expect(result.stderr, `${manifest.kind}/${manifest.metadata.name}`).toBe('');
      const stored = JSON.parse(
        (await kubectl(['get', '-n', ns.name, manifest.kind.toLowerCase() + '.gw.gw.io', manifest.metadata.name, '-o', 'json'])).stdout,
      ) as Manifest;
      expect(stored.spec, `${manifest.kind} spec after the round trip`).toEqual(manifest.spec);
    }
    const all = await kubectl(['get', 'gw', '-n', ns.name, '-o', 'name']);
    expect(all.stdout.trim().split('\n')).toHaveLength(valid.length);
  });

  it('prints DOMAIN, LISTENPATH, PROXY.TARGETURL, ENABLED, SYNCSTATUS, INGRESSTEMPLATE, READY and REASON for ApiDefinitions', async () => {
    await apply(valid[0], ns.name);
    await kubectl([
      'patch',
      '-n',
      ns.name,
      'apidefinition',
      'httpbin',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({ status: { latestTransaction: { status: 'Successful', time: '2026-11-21T12:00:00Z' }, ingressTemplate: false } }),
    ]);
    const { stdout } = await kubectl(['get', 'apidefinitions', '-n', ns.name]);
    const [header, row] = stdout
      .trim()
      .split('\n')
      .map((line) => line.trim().split(/\s+/));
    expect(header).toEqual(['NAME', 'DOMAIN', 'LISTENPATH', 'PROXY.TARGETURL', 'ENABLED', 'SYNCSTATUS', 'INGRESSTEMPLATE', 'READY', 'REASON', 'AGE']);
    expect(row?.slice(0, 7)).toEqual(['httpbin', 'api.example.com', '/httpbin/', 'http://httpbin.default.svc:8000', 'true', 'Successful', 'false']);
    const short = await kubectl(['get', 'gwapis', '-n', ns.name, '-o', 'name']);
    expect(short.stdout.trim()).toBe('apidefinition.gw.gw.io/httpbin');
  });

  it('prints the OAS and Streams columns from status', async () => {
    await apply(valid[2], ns.name);
    await kubectl([
      'patch',
      '-n',
      ns.name,
      'gwoasapidefinition',
      'petstore',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({
        status: { domain: 'pets.example.com', listenPath: '/pets/', targetURL: 'http://petstore', enabled: true, latestTransaction: { status: 'Failed' } },
      }),
    ]);
    const oas = (await kubectl(['get', 'gwoas', '-n', ns.name])).stdout
      .trim()
      .split('\n')
      .map((line) => line.trim().split(/\s+/));
    expect(oas[0]).toEqual(['NAME', 'DOMAIN', 'LISTENPATH', 'PROXY.TARGETURL', 'ENABLED', 'SYNCSTATUS', 'INGRESSTEMPLATE', 'READY', 'REASON', 'AGE']);
    expect(oas[1]?.slice(0, 6)).toEqual(['petstore', 'pets.example.com', '/pets/', 'http://petstore', 'true', 'Failed']);
    await apply(valid[3], ns.name);
    const streams = (await kubectl(['get', 'gwstreams', '-n', ns.name])).stdout.trim().split('\n')[0]!.trim().split(/\s+/);
    expect(streams).toEqual(['NAME', 'DOMAIN', 'LISTENPATH', 'ENABLED', 'SYNCSTATUS', 'READY', 'REASON', 'AGE']);
  });

  it.each([
    {
      problem: 'a wrong type',
      manifest: object('ApiDefinition', 'bad-type', { name: 'bad', use_keyless: 'yes' }),
      message: 'spec.use_keyless in body must be of type boolean',
      serverSideMessage: '.spec.use_keyless: expected boolean',
    },
    {
      problem: 'an unknown enum value',
      manifest: object('SecurityPolicy', 'bad-state', { name: 'bad', state: 'paused' }),
      message: 'spec.state: Unsupported value: "paused": supported values: "active", "draft", "deny"',
    },
    {
      problem: 'a missing configmapRef.keyName',
      manifest: object('GwOasApiDefinition', 'bad-ref', { gwOAS: { configmapRef: { name: 'petstore' } } }),
      message: 'spec.gwOAS.configmapRef.keyName: Required value',
    },
    {
      problem: 'a missing spec',
      manifest: { apiVersion: 'gw.gw.io/v1alpha1', kind: 'ApiDefinition', metadata: { name: 'no-spec' } },
      message: 'spec: Required value',
    },
    {
      problem: 'an unknown field',
      manifest: object('ApiDefinition', 'bad-field', { name: 'bad', listen_path: '/x' }),
      message: 'unknown field "spec.listen_path"',
      serverSideMessage: '.spec.listen_path: field not declared in schema',
    },
    {
      problem: "a quota_max of 0 (gw's design allows -1 or a positive integer)",
      manifest: object('SecurityPolicy', 'bad-quota', { name: 'bad', access_rights_array: [{ name: 'a', limit: { quota_max: 0 } }] }),
      message: 'spec.access_rights_array[0].limit.quota_max: Invalid value: 0: quota_max must be -1 (unlimited) or a positive integer',
    },
    {
      problem: 'an unknown OperatorContext mode',
      manifest: object('OperatorContext', 'bad-mode', { env: { mode: 'enterprise' } }),
      message: 'spec.env.mode: Unsupported value: "enterprise"',
    },
  ] as { problem: string; manifest: unknown; message: string; serverSideMessage?: string }[])(
    'rejects $problem with a message naming the field',
    async ({ manifest, message, serverSideMessage }) => {
      const clientSide = await kubectl(['apply', '-n', ns.name, '-f', '-'], { input: JSON.stringify(manifest), allowFailure: true });
      expect(clientSide.code).not.toBe(0);
      expect(clientSide.stderr).toContain(message);
      const serverSide = await apply(manifest, ns.name);
      expect(serverSide.code).not.toBe(0);
      expect(serverSide.stderr).toContain(serverSideMessage ?? message);
      const stored = await kubectl(['get', '-n', ns.name, 'gw', '-o', 'name']);
      expect(stored.stdout).toBe(''); // nothing half-applied
    },
  );
});
