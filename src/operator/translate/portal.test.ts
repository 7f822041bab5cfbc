// The portal translation, as a unit: a catalogue entry is the inline fields with the APIDescription's copied over
// them and the cluster references replaced by the resolved ids; a document is base64 from a ConfigMap, checked
// base64 inline, a URL as it is; a configuration drops what the dashboard owns.
import { describe, expect, it } from 'vitest';
import { InvalidSpecError } from '../sync/errors.ts';
import { catalogueEntry, configurationPayload, documentationPayload } from './portal.ts';

describe('portal translation', () => {
  it('builds a catalogue entry: description over inline, references replaced by the resolved ids, version v2 by default', () => {
    const entry = catalogueEntry(
      { apiDescriptionRef: { name: 'd' }, policyRef: { name: 'p' }, name: 'inline name', show: false, fields: { team: 'a' } },
      {
        name: 'Payments',
        show: true,
        auth_type: 'authToken',
        policyRef: { name: 'gold' },
        apiRef: { kind: 'ApiDefinition', name: 'pay' },
        documentation: { doc_type: 'swagger', documentation: 'e30=' },
        contextRef: { name: 'ctx' },
      },
      { policyId: 'pol-1', apiId: 'api-1', documentationId: 'doc-1' },
    );
    expect(entry).toEqual({
      name: 'Payments',
      show: true,
      auth_type: 'authToken',
      fields: { team: 'a' },
      policy_id: 'pol-1',
      api_id: 'api-1',
      documentation: 'doc-1',
      version: 'v2',
    });
  });

  it('leaves api_id and documentation out when there are none, and keeps a version that is set', () => {
    expect(
      catalogueEntry({ apiDescriptionRef: { name: 'd' } }, { name: 'x', version: 'v3' }, { policyId: 'p', apiId: undefined, documentationId: undefined }),
    ).toEqual({ name: 'x', version: 'v3', policy_id: 'p' });
  });

  it('encodes a ConfigMap document in base64, passes an inline base64 document and a custom URL as they are', () => {
    const yaml = 'openapi: 3.0.3\ninfo: {title: Pets}\n';
    expect(documentationPayload({ name: 'x', documentation: { configMapRef: { name: 'cm', keyName: 'oas.yaml' } } }, 'api-1', { configMapText: yaml })).toEqual(
      { api_id: 'api-1', doc_type: 'swagger', documentation: Buffer.from(yaml).toString('base64') },
    );
    expect(
      documentationPayload({ name: 'x', documentation: { doc_type: 'swagger', documentation: 'eyJvcGVuYXBpIjoiMy4wLjMifQ==' } }, 'a', {})?.documentation,
    ).toBe('eyJvcGVuYXBpIjoiMy4wLjMifQ==');
    expect(
      documentationPayload({ name: 'x', documentation: { doc_type: 'swagger_custom_url', link_documentation: 'https://example.com/oas.json' } }, 'a', {}),
    ).toEqual({ api_id: 'a', doc_type: 'swagger_custom_url', documentation: 'https://example.com/oas.json' });
    expect(documentationPayload({ name: 'x' }, 'a', {})).toBeUndefined();
  });

  it('refuses an inline document that is not base64, and a custom URL document without the URL, naming the field', () => {
    expect(() => documentationPayload({ name: 'x', documentation: { documentation: '{"openapi": "3.0.3"}' } }, 'a', {})).toThrow(InvalidSpecError);
    expect(() => documentationPayload({ name: 'x', documentation: { documentation: '{"openapi": "3.0.3"}' } }, 'a', {})).toThrow(
      /spec\.documentation\.documentation/,
    );
    expect(() => documentationPayload({ name: 'x', documentation: { doc_type: 'swagger_custom_url' } }, 'a', {})).toThrow(
      /spec\.documentation\.link_documentation/,
    );
  });

  it('builds a configuration without contextRef or the ids the dashboard owns, in the context organisation', () => {
    expect(
      configurationPayload({ require_key_approval: true, signup_fields: ['company'], contextRef: { name: 'c' }, id: 'x', org_id: 'other' }, 'org-1'),
    ).toEqual({ require_key_approval: true, signup_fields: ['company'], org_id: 'org-1' });
  });
});
