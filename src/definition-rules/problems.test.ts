// The gateway's framing of a rule problem: the words the webhook shows, on one line, map keys as fields.
import { describe, expect, it } from 'vitest';
import { forbidden, gatewayMessage, invalid, required } from './problems.ts';

describe('gatewayMessage', () => {
  it('continues the field with a verb or the value, follows it with a colon otherwise, and leaves the value out', () => {
    expect(gatewayMessage(invalid('proxy.listen_path', 'x', "must start with '/'"))).toBe("proxy.listen_path must start with '/'");
    expect(gatewayMessage(invalid('hmac_allowed_algorithms[0]', 'rsa-sha256', 'rsa-sha256 signatures are not supported by this gateway yet'))).toBe(
      'hmac_allowed_algorithms[0] rsa-sha256 signatures are not supported by this gateway yet',
    );
    expect(gatewayMessage(invalid('graphql.schema', '(schema)', 'line 2, column 10: Unknown type "Strng".'))).toBe(
      'graphql.schema: line 2, column 10: Unknown type "Strng".',
    );
    expect(gatewayMessage(invalid('jwt_source', '(redacted)', 'is not a PEM public key'))).not.toContain('redacted');
  });

  it('says required and forbidden in their own words', () => {
    expect(gatewayMessage(required('proxy.listen_path', 'the path the API answers under'))).toBe(
      'proxy.listen_path is required: the path the API answers under',
    );
    expect(gatewayMessage(forbidden('use_keyless', 'a keyless API cannot also use standard auth'))).toBe(
      'use_keyless: a keyless API cannot also use standard auth',
    );
  });

  it('names map keys as fields (version_data.versions.v1), list indexes in brackets', () => {
    expect(gatewayMessage(forbidden('version_data.versions[v1].extended_paths.virtual[0]', 'not supported'))).toBe(
      'version_data.versions.v1.extended_paths.virtual[0]: not supported',
    );
    expect(gatewayMessage(invalid('extended_paths.transform_headers[0].add_headers[bad name]', 'bad name', 'is not a valid header name'))).toBe(
      'extended_paths.transform_headers[0].add_headers.bad name is not a valid header name',
    );
  });
});
