// A key's HMAC signing secret (hmac_string): generated when a key is written with hmac_enabled and no secret, as
// Tyk does (base64 of a random UUID's hex); an update that omits it keeps the stored one.
import { randomUUID } from 'node:crypto';
import type { Session } from '../../domain/session.ts';

export function withHmacSecret(session: Session, existing: Session | undefined): Session {
  if (!session.hmac_enabled || session.hmac_string) return session;
  const hmacString = existing?.hmac_string || Buffer.from(randomUUID().replaceAll('-', '')).toString('base64');
  return { ...session, hmac_string: hmacString };
}
