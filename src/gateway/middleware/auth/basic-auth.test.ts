// Basic authentication: the header parser alone, then the step in the in-process pipeline (test/support/pipeline-harness.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicDefinition, PipelineHarness } from '../../../../test/support/pipeline-harness.ts';
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

describe('basic auth step (in-process pipeline)', () => {
  let harness: PipelineHarness;
  beforeAll(async () => {
    harness = await PipelineHarness.start({ apis: [classicDefinition('basic', { use_keyless: false, use_basic_auth: true })] });
    await harness.addKey('org1alice', {
      org_id: 'org1',
      basic_auth_data: { password: 'correct horse' },
      access_rights: { basic: { api_id: 'basic', versions: [] } },
    });
  });
  afterAll(() => harness.close());

  it('lets the right user and password through, the Authorization header passed on', async () => {
    const answer = await harness.request({ path: '/basic/a', headers: { authorization: `Basic ${b64('alice:correct horse')}` } });
    expect(answer.status).toBe(200);
    expect(answer.upstream?.headers.authorization).toBe(`Basic ${b64('alice:correct horse')}`);
  });

  it('refuses a missing header (401 Authorization field missing) and a wrong password (401 User not authorised)', async () => {
    const missing = await harness.request({ path: '/basic/a' });
    expect([missing.status, JSON.parse(missing.body)]).toEqual([401, { error: 'Authorization field missing' }]);
    const wrong = await harness.request({ path: '/basic/a', headers: { authorization: `Basic ${b64('alice:wrong')}` } });
    expect([wrong.status, JSON.parse(wrong.body)]).toEqual([401, { error: BasicMessages.notAuthorised }]);
    expect(wrong.upstream).toBeUndefined();
  });
});
