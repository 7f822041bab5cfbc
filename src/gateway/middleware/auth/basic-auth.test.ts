import { describe, expect, it } from 'vitest';
import { BasicMessages, parseBasicHeader } from './basic-auth.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('parseBasicHeader', () => {
  it('reads user:password from the second word (the first is not checked, as Tyk)', () => {
    expect(parseBasicHeader(`Basic ${b64('u:p')}`)).toEqual({ ok: true, user: 'u', password: 'p' });
    expect(parseBasicHeader(`Whatever ${b64('u:')}`)).toEqual({ ok: true, user: 'u', password: '' });
  });

  it("refuses malformed headers with Tyk's 400 messages", () => {
    expect(parseBasicHeader('Basic')).toEqual({ ok: false, status: 400, message: BasicMessages.malformed });
    expect(parseBasicHeader('Basic a b')).toEqual({ ok: false, status: 400, message: BasicMessages.malformed });
    expect(parseBasicHeader('Basic %%%')).toEqual({ ok: false, status: 400, message: BasicMessages.badEncoding });
    expect(parseBasicHeader(`Basic ${b64('nocolon')}`)).toEqual({ ok: false, status: 400, message: BasicMessages.notUserPass });
    expect(parseBasicHeader(`Basic ${b64('a:b:c')}`)).toEqual({ ok: false, status: 400, message: BasicMessages.notUserPass });
  });
});
