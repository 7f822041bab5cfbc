import { describe, expect, it } from 'vitest';
import { describeFieldError } from './field-errors.ts';
import { validateStreamsApiDefinition } from './streamsapidefinition.ts';

const base = { gwStreams: { configmapRef: { name: 'events', keyName: 'streams.json' } } };
const messages = (spec: unknown): string[] => validateStreamsApiDefinition(spec).errors.map(describeFieldError);

describe('GwStreamsApiDefinition admission', () => {
  it('allows certificates by id', () => {
    expect(
      messages({
        ...base,
        customDomain: { enabled: true, name: 'events.example.com', certificates: ['org1abc'] },
        mutualTLS: { enabled: true, domainToCertificateMapping: [{ domain: 'up', certificateID: 'org1def' }] },
      }),
    ).toEqual([]);
  });

  it('refuses every certificate setting naming a Secret, naming the field and the id field to use', () => {
    expect(
      messages({
        ...base,
        customDomain: { enabled: true, name: 'events.example.com', certificatesRef: ['site-tls'] },
        clientCertificate: { enabled: true, allowlist: ['client-a'] },
        mutualTLS: { enabled: true, domainToCertificateMapping: [{ domain: 'up', certificateRef: 'up-client' }] },
        certificatePinning: { enabled: true, domainToPublicKeysMapping: [{ domain: 'up', publicKeyRefs: ['pin'] }] },
      }),
    ).toEqual([
      'spec.customDomain.certificatesRef[0]: Forbidden: a GwStreamsApiDefinition takes certificates by id only, not from Secrets: set the certificate id in spec.customDomain.certificates',
      "spec.clientCertificate.allowlist[0]: Forbidden: a GwStreamsApiDefinition takes certificates by id only, not from Secrets: set the certificate id in server.clientCertificates.allowlist of the document's x-gw-api-gateway (leave spec.clientCertificate unset)",
      'spec.mutualTLS.domainToCertificateMapping[0].certificateRef: Forbidden: a GwStreamsApiDefinition takes certificates by id only, not from Secrets: set the certificate id in certificateID',
      'spec.certificatePinning.domainToPublicKeysMapping[0].publicKeyRefs[0]: Forbidden: a GwStreamsApiDefinition takes certificates by id only, not from Secrets: set the certificate id in publicKeys',
    ]);
  });

  it('refuses what the schema refuses, naming the field', () => {
    expect(messages(undefined)).toEqual(['spec: Required value: a GwStreamsApiDefinition needs a spec']);
    expect(messages({ gwStreams: { configmapRef: { name: 'events' } } })).toEqual([
      expect.stringMatching(/^spec\.gwStreams\.configmapRef\.keyName: Required value/),
    ]);
  });
});
