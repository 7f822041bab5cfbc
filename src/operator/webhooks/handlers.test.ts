import { describe, expect, it } from 'vitest';
import { HttpError } from '../../http/errors.ts';
import { parseAdmissionReview, type AdmissionRequest, type AdmissionResponse } from './admission-review.ts';
import { webhookConfigurations } from './configurations.ts';
import { WEBHOOK_PATHS, WEBHOOKS, type Webhook } from './handlers.ts';
import type { PatchOperation } from './json-patch.ts';

const webhook = (path: string): Webhook => WEBHOOKS.find((w) => w.path === path)!;
const mutateApi = webhook('/mutate-gw-gw-io-v1alpha1-apidefinition');
const validateApi = webhook('/validate-gw-gw-io-v1alpha1-apidefinition');
const validatePolicy = webhook('/validate-gw-gw-io-v1alpha1-securitypolicy');

const goodSpec = { name: 'httpbin', use_keyless: true, proxy: { listen_path: '/httpbin', target_url: 'http://httpbin' } };

function request(kind: string, spec: unknown, overrides: Partial<AdmissionRequest> = {}): AdmissionRequest {
  return {
    uid: 'uid-1',
    kind: { group: 'gw.gw.io', version: 'v1alpha1', kind },
    operation: 'CREATE',
    namespace: 'team-a',
    name: 'x',
    object: { apiVersion: 'gw.gw.io/v1alpha1', kind, metadata: { name: 'x', namespace: 'team-a' }, spec },
    ...overrides,
  };
}

function patchOf(response: AdmissionResponse): PatchOperation[] {
  expect(response.patchType).toBe('JSONPatch');
  return JSON.parse(Buffer.from(response.patch!, 'base64').toString()) as PatchOperation[];
}

describe('webhook paths', () => {
  it('follow controller-runtime naming, one mutating and one validating per kind (validating only for GwStreamsApiDefinition)', () => {
    expect(WEBHOOK_PATHS).toEqual([
      '/mutate-gw-gw-io-v1alpha1-apidefinition',
      '/validate-gw-gw-io-v1alpha1-apidefinition',
      '/mutate-gw-gw-io-v1alpha1-securitypolicy',
      '/validate-gw-gw-io-v1alpha1-securitypolicy',
      '/validate-gw-gw-io-v1alpha1-gwstreamsapidefinition',
    ]);
    expect(WEBHOOKS.map((w) => w.name)).toEqual([
      'mapidefinition.gw.gw.io',
      'vapidefinition.gw.gw.io',
      'msecuritypolicy.gw.gw.io',
      'vsecuritypolicy.gw.gw.io',
      'vgwstreamsapidefinition.gw.gw.io',
    ]);
  });

  it('are what the webhook configurations point at', () => {
    const { mutating, validating } = webhookConfigurations({
      name: 'gw',
      endpoint: { url: 'https://127.0.0.1:9443/' },
      caPem: 'PEM',
      namespaceSelector: { matchLabels: { a: 'b' } },
    });
    expect(mutating.kind).toBe('MutatingWebhookConfiguration');
    expect(mutating.webhooks.map((w) => (w.clientConfig as { url: string }).url)).toEqual([
      'https://127.0.0.1:9443/mutate-gw-gw-io-v1alpha1-apidefinition',
      'https://127.0.0.1:9443/mutate-gw-gw-io-v1alpha1-securitypolicy',
    ]);
    expect(validating.webhooks[1]).toMatchObject({
      name: 'vsecuritypolicy.gw.gw.io',
      clientConfig: { caBundle: Buffer.from('PEM').toString('base64') },
      rules: [{ apiGroups: ['gw.gw.io'], apiVersions: ['v1alpha1'], operations: ['CREATE', 'UPDATE'], resources: ['securitypolicies'] }],
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      namespaceSelector: { matchLabels: { a: 'b' } },
    });
    const service = webhookConfigurations({ name: 'gw', endpoint: { service: { name: 'gw-webhook', namespace: 'gw-operator-system', port: 443 } } });
    expect(service.validating.webhooks[0]!.clientConfig).toEqual({
      service: { name: 'gw-webhook', namespace: 'gw-operator-system', port: 443, path: '/validate-gw-gw-io-v1alpha1-apidefinition' },
    });
  });
});

describe('mutating webhooks', () => {
  it('answer with the defaulting patch, base64 JSON Patch', () => {
    const response = mutateApi.admit(request('ApiDefinition', { ...goodSpec, use_keyless: false, use_standard_auth: true }));
    expect(response).toMatchObject({ uid: 'uid-1', allowed: true });
    expect(patchOf(response)).toContainEqual({ op: 'add', path: '/spec/auth_configs', value: { authToken: { auth_header_name: 'Authorization' } } });
  });

  it('send no patch when there is nothing to default', () => {
    const spec = { ...goodSpec, version_data: { versions: { v1: { name: 'v1' } } } };
    expect(mutateApi.admit(request('ApiDefinition', spec))).toEqual({ uid: 'uid-1', allowed: true });
  });

  it('let DELETE, other kinds and objects being deleted through untouched', () => {
    expect(mutateApi.admit(request('ApiDefinition', {}, { operation: 'DELETE', object: undefined, oldObject: {} }))).toEqual({ uid: 'uid-1', allowed: true });
    expect(mutateApi.admit(request('SecurityPolicy', { name: 'p', active: false }))).toEqual({ uid: 'uid-1', allowed: true });
    const deleting = request('ApiDefinition', goodSpec);
    (deleting.object as { metadata: Record<string, unknown> }).metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    expect(mutateApi.admit(deleting)).toEqual({ uid: 'uid-1', allowed: true });
  });
});

describe('validating webhooks', () => {
  it('allow a valid object, with warnings', () => {
    expect(validateApi.admit(request('ApiDefinition', goodSpec))).toEqual({ uid: 'uid-1', allowed: true });
    const throttled = { name: 'p', rate: 1, per: 1, throttle_interval: 0, throttle_retry_limit: 3 };
    expect(validatePolicy.admit(request('SecurityPolicy', throttled))).toEqual({
      uid: 'uid-1',
      allowed: true,
      warnings: [expect.stringMatching(/^spec\.throttle_interval: throttling disabled: throttle_interval is 0/)],
    });
  });

  it('refuse field errors the way apierrors.NewInvalid does: 422 Invalid, one cause per field', () => {
    const response = validateApi.admit(request('ApiDefinition', { ...goodSpec, use_standard_auth: true }));
    expect(response).toEqual({
      uid: 'uid-1',
      allowed: false,
      status: {
        status: 'Failure',
        code: 422,
        reason: 'Invalid',
        message:
          'ApiDefinition.gw.gw.io "x" is invalid: spec.use_keyless: Forbidden: a keyless API cannot also use standard auth (spec.use_standard_auth); set one of them',
        details: {
          name: 'x',
          group: 'gw.gw.io',
          kind: 'ApiDefinition',
          causes: [
            {
              reason: 'FieldValueForbidden',
              message: 'Forbidden: a keyless API cannot also use standard auth (spec.use_standard_auth); set one of them',
              field: 'spec.use_keyless',
            },
          ],
        },
      },
    });
  });

  it('list several errors in brackets, and keep the warnings of a refused object', () => {
    const response = validatePolicy.admit(request('SecurityPolicy', { name: 'p', rate: 5, quota_max: 10, throttle_interval: 1 }));
    expect(response.allowed).toBe(false);
    expect(response.status?.message).toBe(
      'SecurityPolicy.gw.gw.io "x" is invalid: [spec.per: Required value: the rate limit period in seconds is needed when rate is set (rate requests per `per` seconds); use rate 0 or -1 for no rate limit, ' +
        'spec.quota_renewal_rate: Required value: the quota period in seconds (3600 hourly, 86400 daily) is needed when quota_max is set; use quota_max -1 for no quota]',
    );
    expect(response.warnings).toHaveLength(1);
  });

  it('let an UPDATE that keeps the spec through, and check one that changes it', () => {
    const bad = { ...goodSpec, use_standard_auth: true };
    expect(
      validateApi.admit(request('ApiDefinition', bad, { operation: 'UPDATE', oldObject: { metadata: { name: 'x' }, spec: structuredClone(bad) } })).allowed,
    ).toBe(true);
    expect(validateApi.admit(request('ApiDefinition', bad, { operation: 'UPDATE', oldObject: { metadata: { name: 'x' }, spec: goodSpec } })).allowed).toBe(
      false,
    );
  });

  it('resolve access rights without a namespace to the request namespace', () => {
    const spec = { name: 'p', access_rights_array: [{ name: 'a' }, { name: 'a', namespace: 'team-a' }] };
    expect(validatePolicy.admit(request('SecurityPolicy', spec)).status?.details?.causes).toEqual([
      expect.objectContaining({ reason: 'FieldValueDuplicate', field: 'spec.access_rights_array[1]' }),
    ]);
    expect(
      validatePolicy.admit(request('SecurityPolicy', spec, { namespace: 'team-b', object: { metadata: { name: 'x', namespace: 'team-b' }, spec } })).allowed,
    ).toBe(true);
  });
});

describe('parseAdmissionReview', () => {
  const review = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: request('ApiDefinition', goodSpec) };

  it('returns the request of an admission.k8s.io/v1 review', () => {
    expect(parseAdmissionReview(JSON.stringify(review))).toMatchObject({ uid: 'uid-1', operation: 'CREATE' });
  });

  it('refuses anything else as malformed, saying why', () => {
    expect(() => parseAdmissionReview('{')).toThrow(HttpError);
    expect(() => parseAdmissionReview(JSON.stringify({ ...review, apiVersion: 'admission.k8s.io/v1beta1' }))).toThrow(/apiVersion/);
    expect(() => parseAdmissionReview(JSON.stringify({ ...review, request: { ...review.request, uid: '' } }))).toThrow(/request\.uid/);
    expect(() => parseAdmissionReview(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }))).toThrow(/request/);
  });

  it('refuses a review nested deeper than the shared limit with 400 before parsing it, naming the limit', () => {
    const deep = `${JSON.stringify(review).slice(0, -2)},"object":{"spec":${'{"d":'.repeat(5000)}1${'}'.repeat(5000)}}}}`;
    expect(() => parseAdmissionReview(deep)).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringMatching(/^Request malformed: JSON nested deeper than 100 levels/) as string }) as Error,
    );
  });
});
