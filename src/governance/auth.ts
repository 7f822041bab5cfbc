// Who is calling: the X-API-Key header resolved to a principal, and the admin-only rule.
//   - the configured admin_token (the bootstrap admin) is compared in constant time over SHA-256 digests, so
//     neither its value nor its length leaks through timing;
//   - any other key is looked up among the issued tokens (tokens.ts) by its digest;
//   - no header: 401 `X-API-Key header missing`; a key that is neither: 401 `invalid API key`;
//   - members read; writes need an admin: 403 `only admins may <action>`.
// Keys are never logged: a failure logs the path and the caller's address only.
import { secretMatcher } from '../domain/key-hash.ts';
import type { FastifyRequest } from 'fastify';
import type { TokenRole } from './bodies.ts';
import { HttpError } from '../http/errors.ts';
import type { TokenStore } from './tokens.ts';

export interface Principal {
  /** Token id; `bootstrap` for the configured admin_token. */
  id: string;
  name: string;
  role: TokenRole;
}

export const API_KEY_HEADER = 'x-api-key';

export class Authenticator {
  readonly #isAdminToken: (given: unknown) => boolean;
  readonly #tokens: TokenStore;
  readonly #principals = new WeakMap<FastifyRequest, Principal>();

  constructor(adminToken: string | undefined, tokens: TokenStore) {
    this.#isAdminToken = adminToken === undefined ? () => false : secretMatcher(adminToken);
    this.#tokens = tokens;
  }

  /** Resolves the request's key and remembers the principal for principalOf; throws 401. */
  async authenticate(request: FastifyRequest): Promise<Principal> {
    const given = request.headers[API_KEY_HEADER];
    if (typeof given !== 'string' || given === '') throw new HttpError('unauthenticated', 'X-API-Key header missing');
    const principal = await this.#resolve(given);
    if (!principal) throw new HttpError('unauthenticated', 'invalid API key');
    this.#principals.set(request, principal);
    return principal;
  }

  principalOf(request: FastifyRequest): Principal | undefined {
    return this.#principals.get(request);
  }

  /** 403 unless the caller is an admin; `action` completes "only admins may ...". */
  requireAdmin(request: FastifyRequest, action: string): Principal {
    const principal = this.#principals.get(request);
    if (!principal) throw new HttpError('unauthenticated', 'X-API-Key header missing');
    if (principal.role !== 'admin') throw new HttpError('forbidden', `only admins may ${action}`);
    return principal;
  }

  async #resolve(key: string): Promise<Principal | undefined> {
    if (this.#isAdminToken(key)) return { id: 'bootstrap', name: 'admin_token', role: 'admin' };
    return this.#tokens.find(key);
  }
}
