// The coprocess messages on the wire (protobuf-wire.ts with coprocess-messages.ts' schemas): bytes checked against
// protobuf's encoding by hand (Tyk's field numbers, a negative int32 as ten bytes, maps as entries, defaults left
// out), decoding of what other encoders write (packed repeated scalars, unknown fields skipped), and malformed
// input refused.
import { describe, expect, it } from 'vitest';
import { decodeObject, encodeObject, HookType } from './coprocess-messages.ts';
import { ProtobufError } from './protobuf-wire.ts';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('coprocess Object encoding', () => {
  it("writes Tyk's field numbers and proto3's encodings", () => {
    const bytes = encodeObject({
      hook_type: HookType.Pre,
      hook_name: 'ab',
      request: { return_overrides: { response_code: -1 }, set_headers: { k: 'v' } },
      spec: {},
    });
    // 08 01: hook_type (1, varint) Pre; 12 02 "ab": hook_name (2); 1a 15: request (3), 21 bytes:
    //   12 06 (0a 01 "k" 12 01 "v"): set_headers (2) entry; 52 0b (08 + ten-byte -1): return_overrides (10)
    expect(hex(bytes)).toBe('0801' + '12026162' + '1a15' + '1206' + '0a016b120176' + '520b' + '08ffffffffffffffffff01');
  });

  it('leaves proto3 defaults out', () => {
    expect(hex(encodeObject({ hook_type: 0, hook_name: '', request: { raw_body: Buffer.alloc(0), headers: {} } }))).toBe('1a00');
  });

  it('reads back what it wrote, with the session and the response', () => {
    const object = {
      hook_type: HookType.Response,
      hook_name: 'R',
      session: {
        rate: 2.5,
        per: 60,
        quota_max: -1,
        tags: ['a', 'b'],
        metadata: { token: 't' },
        access_rights: { api: { api_id: 'api', versions: ['Default'] } },
      },
      response: { status_code: 201, raw_body: Buffer.from([0xff, 0x00]), multivalue_headers: [{ key: 'X-A', values: ['1', '2'] }] },
    };
    expect(decodeObject(encodeObject(object))).toEqual(object);
  });

  it('reads packed repeated doubles and skips fields it does not know', () => {
    // session (4): monitor is not read; field 40 (unknown, varint 5), then rate (3, double 1.0)
    const session = Buffer.concat([Buffer.from('c00205', 'hex'), Buffer.from('19000000000000f03f', 'hex')]);
    const bytes = Buffer.concat([Buffer.from([0x22, session.length]), session]);
    expect(decodeObject(bytes)).toEqual({ session: { rate: 1 } });
  });

  it('refuses a truncated message', () => {
    expect(() => decodeObject(Buffer.from('1205616263', 'hex'))).toThrow(ProtobufError);
    expect(() => decodeObject(Buffer.from('08ff', 'hex'))).toThrow(ProtobufError);
  });
});
