// Basic-auth keys as the management API writes and shows them (Tyk: api.go 481-515, 631-650, 790-795): the key
// of user U in organisation O is named O+U; the password posted in basic_auth_data is stored as a bcrypt hash
// (hash_type `bcrypt`), re-hashed on update only when it changed, by the gateway's bcrypt worker pool (never on the
// event loop); a key read back never shows it.
import type { Session } from '../../api/session.ts';

/** Hashes a password with bcrypt off the event loop (the gateway's BcryptPool); rejects HashingBusyError when full. */
export type PasswordHasher = (plain: string) => Promise<string>;

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
