// The JWT step alone, with a real session cache over an in-memory stand-in for the store (JWT sessions are derived,
// never read from it): what it leaves on the context for later steps.
import { SignJWT } from 'jose';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
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
