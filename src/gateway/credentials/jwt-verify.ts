// Verifying a JWT for one API: the algorithm must belong to the API's signing method (hmac: HS*, rsa: RS* and
// PS*, ecdsa: ES*; `none` never), the signature must verify with the API's key (a secret, a PEM key, or the JWKS
// key named by `kid`), and exp / iat / nbf must hold with the API's skews (missing claims pass; a present one that
// is not a NumericDate, RFC 7519 §2 - a string, a boolean, null, a list, or a number too large to be finite - is
// refused, where Tyk Gateway ignores it and the token never expires). Outcomes carry
// Tyk's statuses and messages (docs/compatibility.md); nothing about the key or the token is logged here.
import { createPublicKey, createSecretKey, X509Certificate, type KeyObject } from 'node:crypto';
import { compactVerify, decodeProtectedHeader, type JWTPayload } from 'jose';
import type { JwtSpec } from '../definition/api-spec.ts';
import type { JwksCache } from './jwks-cache.ts';

export const ALGORITHMS: Record<JwtSpec['signingMethod'], readonly string[]> = {
  hmac: ['HS256', 'HS384', 'HS512'],
  rsa: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'],
  ecdsa: ['ES256', 'ES384', 'ES512'],
};

export const JwtMessages = {
  notAuthorised: 'Key not authorized',
  unexpectedMethod: 'Key not authorized: Unexpected signing method',
  expired: 'Key not authorized: token has expired',
  usedBeforeIssued: 'Key not authorized: token used before issued',
  notValidYet: 'Key not authorized: token is not valid yet',
  notNumericDate: (claim: string) => `Key not authorized: the ${claim} claim is not a NumericDate`,
} as const;

const TIME_CLAIMS = ['exp', 'iat', 'nbf'] as const;

export type JwtOutcome = { ok: true; claims: JWTPayload } | { ok: false; status: number; message: string };

const REFUSED: JwtOutcome = { ok: false, status: 403, message: JwtMessages.notAuthorised };

export class JwtVerifier {
  readonly #spec: JwtSpec;
  readonly #jwks: JwksCache;
  readonly #now: () => number;
  readonly #allowed: readonly string[];
  readonly #staticKey: KeyObject | undefined;

  constructor(spec: JwtSpec, jwks: JwksCache, now: () => number) {
    this.#spec = spec;
    this.#jwks = jwks;
    this.#now = now;
    this.#allowed = ALGORITHMS[spec.signingMethod];
    const source = spec.source;
    this.#staticKey =
      source.kind === 'secret'
        ? createSecretKey(source.secret)
        : source.kind === 'pem'
          ? source.pem.includes('BEGIN CERTIFICATE')
            ? new X509Certificate(source.pem).publicKey
            : createPublicKey(source.pem)
          : undefined;
  }

  async verify(token: string): Promise<JwtOutcome> {
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      return REFUSED;
    }
    if (typeof header.alg !== 'string' || !this.#allowed.includes(header.alg)) return { ok: false, status: 403, message: JwtMessages.unexpectedMethod };
    let keys: KeyObject[];
    if (this.#staticKey) keys = [this.#staticKey];
    else {
      const rawKid = (header as Record<string, unknown>).kid;
      if (!this.#spec.skipKid && rawKid !== undefined && typeof rawKid !== 'string') return REFUSED;
      const kid = this.#spec.skipKid ? undefined : (rawKid as string | undefined);
      keys = await this.#jwks.keys((this.#spec.source as { url: string }).url, kid);
    }
    let payload: Uint8Array | undefined;
    for (const key of keys) {
      try {
        payload = (await compactVerify(token, key, { algorithms: [...this.#allowed] })).payload;
        break;
      } catch {
        // try the next candidate (JWKS without kid)
      }
    }
    if (!payload) return REFUSED;
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(payload).toString('utf8'));
    } catch {
      return REFUSED;
    }
    if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) return REFUSED;
    const problem = this.timeProblem(claims as JWTPayload);
    return problem ? { ok: false, status: 401, message: problem } : { ok: true, claims: claims as JWTPayload };
  }

  /**
   * Tyk's checks (timeValidateJWTClaims): each skew widens its own window only. Also run on every reuse of
   * a token verified before (the signature is what a cache may skip, never the clock).
   */
  timeProblem(claims: JWTPayload): string | undefined {
    for (const claim of TIME_CLAIMS) {
      const value: unknown = claims[claim];
      if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value))) return JwtMessages.notNumericDate(claim);
    }
    const now = this.#now() / 1000;
    const { exp, iat, nbf } = this.#spec.skew;
    if (typeof claims.exp === 'number' && now - exp > claims.exp) return JwtMessages.expired;
    if (typeof claims.iat === 'number' && now + iat < claims.iat) return JwtMessages.usedBeforeIssued;
    if (typeof claims.nbf === 'number' && now + nbf < claims.nbf) return JwtMessages.notValidYet;
    return undefined;
  }
}
