// API tokens of the governance hub, in the database: issue, list, revoke, and look one up by its secret.
// A token's secret is `gwg_` + 32 random bytes (base64url), shown once at issue; only its SHA-256 is stored
// (api/key-hash.ts), so neither a database dump nor a backup holds a usable credential. A lookup is by that digest:
// the time it takes says nothing about how close a guess came.
import { randomBytes, randomUUID } from 'node:crypto';
import { hashKey } from '../domain/key-hash.ts';
import type { Queryable } from '../db/database.ts';
import { iso } from '../db/rows.ts';
import type { TokenBody, TokenRole } from './bodies.ts';

export const TOKEN_PREFIX = 'gwg_';

export interface TokenInfo {
  id: string;
  name: string;
  role: TokenRole;
  created_at: string;
}

export interface IssuedToken {
  id: string;
  name: string;
  role: TokenRole;
  /** The secret, sent as X-API-Key. Shown once: it cannot be read back. */
  token: string;
}

export class TokenStore {
  readonly #db: Queryable;

  constructor(db: Queryable) {
    this.#db = db;
  }

  async issue(body: TokenBody): Promise<IssuedToken> {
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const id = randomUUID();
    await this.#db.query('INSERT INTO governance_tokens (id, name, role, secret_sha256) VALUES ($1, $2, $3, $4)', [id, body.name, body.role, hashKey(token)]);
    return { id, name: body.name, role: body.role, token };
  }

  async list(): Promise<TokenInfo[]> {
    const rows = await this.#db.query<{ id: string; name: string; role: TokenRole; created_at: Date | string }>(
      'SELECT id, name, role, created_at FROM governance_tokens ORDER BY created_at, id',
    );
    return rows.map(tokenInfoOf);
  }

  /** The revoked token; undefined when no token has this id. */
  async revoke(id: string): Promise<TokenInfo | undefined> {
    const rows = await this.#db.query<{ id: string; name: string; role: TokenRole; created_at: Date | string }>(
      'DELETE FROM governance_tokens WHERE id = $1 RETURNING id, name, role, created_at',
      [id],
    );
    const row = rows[0];
    return row && tokenInfoOf(row);
  }

  /** The token whose secret this is, if any. */
  async find(secret: string): Promise<{ id: string; name: string; role: TokenRole } | undefined> {
    const rows = await this.#db.query<{ id: string; name: string; role: TokenRole }>('SELECT id, name, role FROM governance_tokens WHERE secret_sha256 = $1', [
      hashKey(secret),
    ]);
    return rows[0];
  }

  async hasAdmin(): Promise<boolean> {
    return (await this.#db.query("SELECT 1 FROM governance_tokens WHERE role = 'admin' LIMIT 1")).length > 0;
  }
}

function tokenInfoOf(row: { id: string; name: string; role: TokenRole; created_at: unknown }): TokenInfo {
  return { id: row.id, name: row.name, role: row.role, created_at: iso(row.created_at) };
}
