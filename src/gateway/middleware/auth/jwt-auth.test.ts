// The JWT step alone, with a real session cache over an in-memory stand-in for the store (JWT sessions are derived,
// never read from it): what it leaves on the context for later steps. Then in the in-process pipeline
// (test/support/pipeline-harness.ts): what a client is answered and what reaches the upstream.
import { SignJWT } from 'jose';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicDefinition, PipelineHarness } from '../../../../test/support/pipeline-harness.ts';
import { GatewayConfigSchema } from '../../config.ts';
import { JwksCache } from '../../credentials/jwks-cache.ts';
import type { JwtSpec } from '../../definition/api-spec.ts';
import type { ProxyContext } from '../../pipeline/contract.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import { SessionCache } from '../../session/session-cache.ts';
import { StorageIds } from '../../session/storage-ids.ts';
import type { Store, StoredPolicy } from '../../store/store.ts';
import { jwtAuth } from './jwt-auth.ts';

const secret = Buffer.from('step-secret');
const spec: JwtSpec = {
  credential: { kind: 'token', headerName: 'Authorization', readHeader: true },
  signingMethod: 'hmac',
  source: { kind: 'secret', secret },
  skipKid: false,
  policyField: 'pol',
  defaultPolicies: [],
  scopeToPolicy: new Map(),
  skew: { exp: 0, nbf: 0, iat: 0 },
};
const policies = new Map<string, StoredPolicy>([
  ['gold', { id: 'gold', name: 'gold', rate: 5, per: 1, access_rights: { api: { api_id: 'api', versions: [] } } }],
]);
const store = { onKeyChanged: () => undefined, getKey: () => Promise.resolve(undefined) } as unknown as Store;
const services = {
  config: GatewayConfigSchema.parse({ secret: 'x' }),
  sessions: new SessionCache(store, (id) => policies.get(id)),
  storageIds: new StorageIds(),
  jwks: new JwksCache(() => undefined),
  log: pino({ level: 'silent' }),
  now: Date.now,
} as unknown as PipelineServices;
const context = (authorization: string) =>
  ({ req: { headers: { authorization } }, query: '', ignored: false, api: { spec: { id: 'api' } } }) as unknown as ProxyContext;

describe('jwtAuth', () => {
  it('puts the identity session and the claims (jwt_claims_<name>) on the context', async () => {
    const step = jwtAuth(spec, 'org1', services, true);
    const token = await new SignJWT({ sub: 'alice', pol: 'gold', email: 'a@example.com' }).setProtectedHeader({ alg: 'HS256' }).sign(secret);
    const ctx = context(`Bearer ${token}`);
    expect(await step(ctx)).toBe(false);
    expect(ctx.variables).toMatchObject({ jwt_claims_sub: 'alice', jwt_claims_pol: 'gold', jwt_claims_email: 'a@example.com' });
    expect(ctx.key?.ok && ctx.key.effective.session).toMatchObject({ alias: 'alice', org_id: 'org1', apply_policies: ['gold'], rate: 5 });
    // Seen again: answered in place, the same session.
    const again = context(`Bearer ${token}`);
    expect(step(again)).toBe(false);
    expect(again.key).toBe(ctx.key);
  });

  it('does not set the session when another mode provides the identity', async () => {
    const step = jwtAuth(spec, 'org1', services, false);
    const token = await new SignJWT({ sub: 'bob', pol: 'gold' }).setProtectedHeader({ alg: 'HS256' }).sign(secret);
    const ctx = context(token);
    expect(await step(ctx)).toBe(false);
    expect(ctx.key).toBeUndefined();
    expect(ctx.variables).toMatchObject({ jwt_claims_sub: 'bob' });
  });
});

describe('JWT step (in-process pipeline)', () => {
  let harness: PipelineHarness;
  beforeAll(async () => {
    harness = await PipelineHarness.start({
      apis: [
        classicDefinition('jwt', {
          use_keyless: false,
          enable_jwt: true,
          jwt_signing_method: 'hmac',
          jwt_source: secret.toString('base64'),
          jwt_identity_base_field: 'sub',
          jwt_policy_field_name: 'pol',
        }),
      ],
      policies: [{ id: 'gold', name: 'gold', rate: 100, per: 1, quota_max: -1, access_rights: { jwt: { api_id: 'jwt', versions: [] } } }],
    });
  });
  afterAll(() => harness.close());

  it('lets a token signed with the secret through, its policy applied', async () => {
    const token = await new SignJWT({ sub: 'carol', pol: 'gold' }).setProtectedHeader({ alg: 'HS256' }).sign(secret);
    const answer = await harness.request({ path: '/jwt/a', headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(200);
    expect(answer.upstream?.path).toBe('/a');
  });

  it("refuses a missing token (400 Authorization field missing) and another secret's signature (403 Key not authorized)", async () => {
    const missing = await harness.request({ path: '/jwt/a' });
    expect([missing.status, JSON.parse(missing.body)]).toEqual([400, { error: 'Authorization field missing' }]);
    const forged = await new SignJWT({ sub: 'mallory', pol: 'gold' }).setProtectedHeader({ alg: 'HS256' }).sign(Buffer.from('other-secret'));
    const refused = await harness.request({ path: '/jwt/a', headers: { authorization: `Bearer ${forged}` } });
    expect([refused.status, JSON.parse(refused.body)]).toEqual([403, { error: 'Key not authorized' }]);
    expect(refused.upstream).toBeUndefined();
  });
});
