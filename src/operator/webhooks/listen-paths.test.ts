// The ApiDefinition validating webhook against what the operator's cache holds: a second active API on the same
// OperatorContext, domain and listen path is refused naming the first; other contexts, domains, inactive APIs,
// Ingress templates and the object's own update go through; without a cluster view nothing is checked.
import { describe, expect, it } from 'vitest';
import type { AdmissionRequest } from './admission-review.ts';
import { WEBHOOKS } from './handlers.ts';
import type { AdmissionCluster } from './listen-paths.ts';

const validateApi = WEBHOOKS.find((w) => w.path === '/validate-gw-gw-io-v1alpha1-apidefinition')!;

const spec = (listenPath: string, extra: Record<string, unknown> = {}) => ({
  name: 'a',
  use_keyless: true,
  proxy: { listen_path: listenPath, target_url: 'http://upstream' },
  ...extra,
});

function creating(name: string, body: Record<string, unknown>, labels?: Record<string, string>): AdmissionRequest {
  return {
    uid: 'uid-1',
    kind: { group: 'gw.gw.io', version: 'v1alpha1', kind: 'ApiDefinition' },
    operation: 'CREATE',
    namespace: 'team-a',
    name,
    object: { apiVersion: 'gw.gw.io/v1alpha1', kind: 'ApiDefinition', metadata: { name, namespace: 'team-a', ...(labels ? { labels } : {}) }, spec: body },
  };
}

const holding = (...objects: { name: string; namespace?: string; spec: unknown; labels?: Record<string, string> }[]): AdmissionCluster => ({
  apiDefinitions: () => objects.map((o) => ({ metadata: { name: o.name, namespace: o.namespace ?? 'team-a', labels: o.labels }, spec: o.spec })),
});

describe('listen path admission', () => {
  it('refuses a second API on the same context, domain and listen path, naming the first', () => {
    const cluster = holding({ name: 'first', spec: spec('/shared/') });
    const response = validateApi.admit(creating('second', spec('/shared')), cluster);
    expect(response.allowed).toBe(false);
    expect(response.status?.message).toBe(
      'ApiDefinition.gw.gw.io "second" is invalid: spec.proxy.listen_path: Duplicate value: "/shared": listen path /shared is already used by ApiDefinition team-a/first on the same gateway: the gateway would serve only one of them (ListenPathConflict)',
    );
  });

  it('compares contexts by namespace and name, and domains without case', () => {
    const first = { name: 'first', namespace: 'team-b', spec: spec('/p', { domain: 'API.example.com', contextRef: { name: 'edge', namespace: 'ops' } }) };
    expect(
      validateApi.admit(creating('second', spec('/p', { domain: 'api.example.com', contextRef: { name: 'edge', namespace: 'ops' } })), holding(first)).allowed,
    ).toBe(false);
    expect(validateApi.admit(creating('second', spec('/p', { domain: 'api.example.com', contextRef: { name: 'edge' } })), holding(first)).allowed).toBe(true); // team-a/edge
    expect(validateApi.admit(creating('second', spec('/p', { contextRef: { name: 'edge', namespace: 'ops' } })), holding(first)).allowed).toBe(true); // no domain
  });

  it('lets through: its own update, an inactive API, an Ingress template, a different path, and no cluster view', () => {
    const first = { name: 'first', spec: spec('/p') };
    expect(validateApi.admit(creating('first', spec('/p', { name: 'renamed' })), holding(first)).allowed).toBe(true);
    expect(validateApi.admit(creating('second', spec('/p', { active: false })), holding(first)).allowed).toBe(true);
    expect(validateApi.admit(creating('second', spec('/p')), holding({ ...first, labels: { 'gw.gw.io/template': 'true' } })).allowed).toBe(true);
    expect(validateApi.admit(creating('second', spec('/p'), { 'gw.gw.io/template': 'true' }), holding(first)).allowed).toBe(true);
    expect(validateApi.admit(creating('second', spec('/p/sub')), holding(first)).allowed).toBe(true);
    expect(validateApi.admit(creating('second', spec('/p'))).allowed).toBe(true);
  });
});
