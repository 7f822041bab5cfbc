// Basic-auth keys as the management API writes and shows them (Tyk: api.go 481-515, 631-650, 790-795): the key
// of user U in organisation O is named O+U; the password posted in basic_auth_data is stored as a bcrypt hash
// (hash_type `bcrypt`), re-hashed on update only when it changed, by a bcrypt worker pool (bcrypt-pool.ts, never on
// the event loop); a key read back never shows it. Shared by the gateway's /gw/keys and the dashboard's /api/keys.
import type { Session } from '../domain/session.ts';
import { HashingBusyError } from './bcrypt-pool.ts';
import { HttpError } from './errors.ts';

/** Hashes a password with bcrypt off the event loop (a BcryptPool); rejects HashingBusyError when full. */
export type PasswordHasher = (plain: string) => Promise<string>;

/** The hasher for a key write: a full pool queue is 503 (`unavailable`), as for password checks. */
export function hashingForKeyWrites(hashPassword: PasswordHasher): PasswordHasher {
  return async (plain) => {
    try {
      return await hashPassword(plain);
    } catch (error) {
      if (error instanceof HashingBusyError) throw new HttpError('unavailable', error.message);
      throw error;
    }
  };
}

export function basicAuthKeyName(orgId: string | undefined, username: string): string {
  return (orgId ?? '') + username;
}

/** The session to store: its basic_auth_data password hashed, unless it is the hash already stored. */
export async function withHashedPassword(session: Session, existing: Session | undefined, hashPassword: PasswordHasher): Promise<Session> {
  const data = session.basic_auth_data;
  if (!data) return session;
  const previous = existing?.basic_auth_data;
  if (previous && previous.hash_type === 'bcrypt' && data.password === previous.password) return { ...session, basic_auth_data: previous };
  return { ...session, basic_auth_data: { password: await hashPassword(data.password), hash_type: 'bcrypt' } };
}

/** The key as answered: the stored password blanked. */
export function withoutPassword(session: Session): Session {
  return session.basic_auth_data ? { ...session, basic_auth_data: { ...session.basic_auth_data, password: '' } } : session;
}
