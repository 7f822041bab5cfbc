// The web UI's sign-in sessions, as their own migration sequence (table dashboard_session_migrations) so they never
// compete for a version number with the dashboard's resource tables (store/schema.ts). A session row holds only
// digests: the SHA-256 of the session token the cookie carries, and the SHA-256 of the access key the user signed
// in with (a key reset therefore ends every session opened with the old key). It goes with its user and
// organisation (ON DELETE CASCADE). Never edit a released migration: add the next version.
import type { Migration } from '../../db/migrate.ts';

export const SESSION_MIGRATIONS_TABLE = 'dashboard_session_migrations';

export const SESSION_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'web UI sessions',
    sql: `
CREATE TABLE dashboard_sessions (
  token_sha256 text PRIMARY KEY,
  user_id text NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
  org_id text NOT NULL REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  access_key_sha256 text NOT NULL,
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX dashboard_sessions_expiry ON dashboard_sessions (expires_at);
`,
  },
];
