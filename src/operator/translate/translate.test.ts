// Golden tests of the translations: testdata/<case>.input.yaml is translated and compared with
// testdata/<case>.golden.json. After an intended change: UPDATE_GOLDEN=1 npm run test:unit, then read the diff.
// A missing golden file fails (test/support/golden.ts): it is never written silently.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { expectGolden } from '../../../test/support/golden.ts';
import type { ApiDefinitionSpec } from '../../domain/crd/apidefinition.ts';
import type { SecurityPolicySpec } from '../../domain/crd/securitypolicy.ts';
import { WaitingError } from '../sync/errors.ts';
import { idFor } from '../sync/ids.ts';
import { apiDefinitionPayload } from './apidefinition.ts';
import { oasApiId, oasPayload, oasSummary, parseOasDocument } from './oas.ts';
import { oasCertificateSecretReferences, withOasCertificates } from './oas-certificates.ts';
import { securityPolicyPayload } from './securitypolicy.ts';

const dir = join(import.meta.dirname, 'testdata');
type Manifest<S> = { metadata: { name: string; namespace: string }; spec: S; data: Record<string, string> };
const input = <S>(name: string): Manifest<S> => parse(readFileSync(join(dir, `${name}.input.yaml`), 'utf8')) as Manifest<S>;

function golden(name: string, actual: unknown): void {
  expectGolden(join(dir, `${name}.golden.json`), `${JSON.stringify(actual, null, 2)}\n`);
}

describe('translations (golden)', () => {
  it('keyless ApiDefinition', () => {
    const { metadata, spec } = input<ApiDefinitionSpec>('apidefinition-keyless');
    golden('apidefinition-keyless', apiDefinitionPayload(metadata.namespace, metadata.name, spec, 'org-1'));
  });

  it('protected ApiDefinition: explicit ids kept, policy references turned into ids, cluster-only fields gone', () => {
    const { metadata, spec } = input<ApiDefinitionSpec>('apidefinition-protected');
    const payload = apiDefinitionPayload(metadata.namespace, metadata.name, spec, 'org-1');
    expect(payload).not.toHaveProperty('contextRef');
    expect(payload.jwt_default_policies).toEqual([idFor('shop', 'gold'), 'explicit-policy-id']);
    golden('apidefinition-protected', payload);
  });

  it('ApiDefinition with certificates from Secrets and a SecurityPolicy as JWT default: ids joined, Secret references gone', () => {
    const { metadata, spec } = input<ApiDefinitionSpec>('apidefinition-certificates');
    const payload = apiDefinitionPayload(metadata.namespace, metadata.name, spec, 'org-1', {
      certificate: (secret) => `id-of-secret-${secret}`,
      policy: (namespace, name) => `id-of-policy-${namespace}-${name}`,
    });
    for (const field of ['certificate_secret_names', 'client_certificate_refs', 'upstream_certificate_refs', 'pinned_public_keys_refs'])
      expect(payload).not.toHaveProperty(field);
    golden('apidefinition-certificates', payload);
  });

  it('GwOasApiDefinition certificate settings written into the document, Secrets by their ids', () => {
    const { metadata, data } = input<never>('oas');
    const document = parseOasDocument(data['oas.yaml']!, 'ConfigMap default/petstore-oas key oas.yaml');
    const spec = {
      gwOAS: { configmapRef: { name: 'petstore-oas', keyName: 'oas.yaml' } },
      clientCertificate: { enabled: true, allowlist: ['client-a'] },
      customDomain: { enabled: true, name: 'pets.example.com', certificates: ['direct-id'], certificatesRef: ['site-tls'] },
      certificatePinning: { enabled: true, domainToPublicKeysMapping: [{ domain: '*.example.com', publicKeys: ['direct-pin'], publicKeyRefs: ['pin'] }] },
      mutualTLS: {
        enabled: true,
        domainToCertificateMapping: [
          { domain: 'up.example.com', certificateRef: 'up-client' },
          { domain: 'other.example.com', certificateID: 'direct-up' },
        ],
      },
    };
    expect(oasCertificateSecretReferences(spec).map((r) => `${r.field}=${r.name}`)).toEqual([
      'spec.customDomain.certificatesRef[0]=site-tls',
      'spec.clientCertificate.allowlist[0]=client-a',
      'spec.mutualTLS.domainToCertificateMapping[0].certificateRef=up-client',
      'spec.certificatePinning.domainToPublicKeysMapping[0].publicKeyRefs[0]=pin',
    ]);
    const id = oasApiId(document, idFor(metadata.namespace, 'petstore'));
    const payload = oasPayload(
      withOasCertificates(document, spec, (secret) => `id-of-secret-${secret}`),
      id,
      'org-1',
    );
    const ext = payload['x-gw-api-gateway'] as { server: Record<string, unknown>; upstream: Record<string, unknown> };
    golden('oas-certificates', { server: ext.server, upstream: ext.upstream });
  });

  it('SecurityPolicy: references resolved to API ids, explicit rights kept', () => {
    const { metadata, spec } = input<SecurityPolicySpec>('securitypolicy');
    const payload = securityPolicyPayload(metadata.namespace, metadata.name, spec, 'org-1', (ref) => ({
      apiId: `id-of-${ref.kind}-${ref.namespace}-${ref.name}`,
      apiName: ref.name,
    }));
    golden('securitypolicy', payload);
  });

  it('SecurityPolicy: the GraphQL permissions of a reference reach the access right', () => {
    const spec: SecurityPolicySpec = {
      name: 'p',
      access_rights_array: [
        {
          name: 'countries',
          restricted_types: [{ name: 'User', fields: ['email'] }],
          allowed_types: [{ name: 'Query', fields: ['*'] }],
          disable_introspection: true,
          limit: { max_query_depth: 3 },
        },
      ],
    };
    const payload = securityPolicyPayload('ns', 'p', spec, 'o', () => ({ apiId: 'countries-id', apiName: 'countries' }));
    expect((payload.access_rights as Record<string, unknown>)['countries-id']).toEqual({
      api_id: 'countries-id',
      api_name: 'countries',
      versions: [],
      limit: { max_query_depth: 3 },
      allowed_types: [{ name: 'Query', fields: ['*'] }],
      restricted_types: [{ name: 'User', fields: ['email'] }],
      disable_introspection: true,
    });
  });

  it('OAS document from a ConfigMap (YAML), with its status summary', () => {
    const { metadata, data } = input<never>('oas');
    const document = parseOasDocument(data['oas.yaml']!, 'ConfigMap default/petstore-oas key oas.yaml');
    const id = oasApiId(document, idFor(metadata.namespace, 'petstore'));
    golden('oas', { payload: oasPayload(document, id, 'org-1'), summary: oasSummary(document) });
  });
});

describe('translation refusals', () => {
  it('without a policy resolver, a SecurityPolicy named as namespace/name becomes its deterministic id', () => {
    expect(apiDefinitionPayload('ns', 'a', { name: 'a', jwt_default_policies: ['shop/gold', 'plain'] }, 'o').jwt_default_policies).toEqual([
      idFor('shop', 'gold'),
      'plain',
    ]);
  });

  it('refuses an OAS document without x-gw-api-gateway, or one that does not parse', () => {
    expect(() => parseOasDocument('{"openapi":"3.0.3"}', 'ConfigMap a/b key c')).toThrow('ConfigMap a/b key c must contain the x-gw-api-gateway section');
    expect(() => parseOasDocument('{ nope', 'ConfigMap a/b key c')).toThrow(/neither JSON nor YAML/);
  });

  it('passes a waiting reference through', () => {
    const spec: SecurityPolicySpec = { name: 'p', access_rights_array: [{ name: 'missing' }] };
    expect(() =>
      securityPolicyPayload('ns', 'p', spec, 'o', () => {
        throw new WaitingError('ApiDefinition ns/missing is not synced yet');
      }),
    ).toThrow(WaitingError);
  });
});
