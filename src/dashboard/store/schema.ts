// The dashboard's tables, as versioned migrations (applied by db/migrate.ts into dashboard_migrations). Every
// resource row carries its org_id and goes when its organisation goes (ON DELETE CASCADE). Definitions, policies
// and sessions are JSONB exactly as validated; the columns beside them (listen_path, slug, ...) are derived from
// them at write time for the uniqueness checks. `revision` is one counter bumped by every write that changes what
// gateways load, so the node API can answer a poll without rereading everything. Never edit a released
// migration: add the next version.
import type { Migration } from '../../db/migrate.ts';
import { PORTAL_CONTENT_MIGRATION, PORTAL_DECLINE_MIGRATION, PORTAL_MIGRATION } from '../portal/migration.ts';
import { PORTAL_ACCOUNT_TOKENS_MIGRATION, PORTAL_SITE_MIGRATION } from '../portal-site/migration.ts';

export const MIGRATIONS_TABLE = 'dashboard_migrations';

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'organisations, users, apis, policies, keys, certificates',
    sql: `
CREATE TABLE dashboard_orgs (
  id text PRIMARY KEY,
  owner_name text NOT NULL,
  cname text NOT NULL DEFAULT '',
  operator_managed boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX dashboard_orgs_cname ON dashboard_orgs (cname) WHERE cname <> '';

CREATE TABLE dashboard_users (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  email_address text NOT NULL UNIQUE,
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  active boolean NOT NULL DEFAULT true,
  system boolean NOT NULL DEFAULT false,
  permissions jsonb NOT NULL,
  access_key_sha256 text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dashboard_users_org ON dashboard_users (org_id, created_at, id);

CREATE TABLE dashboard_apis (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  format text NOT NULL CHECK (format IN ('classic', 'oas')),
  definition jsonb NOT NULL,
  domain text NOT NULL DEFAULT '',
  listen_path text NOT NULL,
  user_owners jsonb NOT NULL DEFAULT '[]',
  user_group_owners jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dashboard_apis_org ON dashboard_apis (org_id, created_at, id);
CREATE INDEX dashboard_apis_route ON dashboard_apis (org_id, domain, listen_path);

CREATE TABLE dashboard_policies (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  slug text NOT NULL,
  policy jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dashboard_policies_org ON dashboard_policies (org_id, created_at, id);
CREATE INDEX dashboard_policies_slug ON dashboard_policies (org_id, slug);

CREATE TABLE dashboard_keys (
  storage_id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  hashed boolean NOT NULL,
  session jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dashboard_keys_org ON dashboard_keys (org_id, created_at, storage_id);

CREATE TABLE dashboard_certs (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  pem text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dashboard_certs_org ON dashboard_certs (org_id, created_at, id);

CREATE TABLE dashboard_revision (
  id integer PRIMARY KEY CHECK (id = 1),
  value bigint NOT NULL
);
INSERT INTO dashboard_revision (id, value) VALUES (1, 0);
`,
  },
  {
    // Issue 10: an id used by one organisation must not be refused to another (a 409 told who exists). API and
    // policy ids are unique per organisation; the node API keeps a gateway serving several organisations
    // collision-free (node-ids.ts).
    version: 2,
    name: 'API and policy ids per organisation',
    sql: `
ALTER TABLE dashboard_apis DROP CONSTRAINT dashboard_apis_pkey;
ALTER TABLE dashboard_apis ADD PRIMARY KEY (org_id, id);
ALTER TABLE dashboard_policies DROP CONSTRAINT dashboard_policies_pkey;
ALTER TABLE dashboard_policies ADD PRIMARY KEY (org_id, id);
`,
  },
  {
    // Issue 14: analytics from gateways. Per-minute aggregates by dimension (aggregate.ts) and the log of requests
    // recorded in detail; both pruned past analytics_retention_days (retention.ts).
    version: 3,
    name: 'analytics aggregates and request log',
    sql: `
CREATE TABLE dashboard_analytics_minutes (
  org_id text NOT NULL REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  dimension text NOT NULL CHECK (dimension IN ('api', 'key', 'tag', 'endpoint')),
  minute timestamptz NOT NULL,
  api_id text NOT NULL,
  value text NOT NULL,
  status_class smallint NOT NULL,
  label text NOT NULL DEFAULT '',
  requests bigint NOT NULL,
  errors bigint NOT NULL,
  latency_sum double precision NOT NULL,
  latency_max double precision NOT NULL,
  upstream_latency_sum double precision NOT NULL,
  PRIMARY KEY (org_id, dimension, minute, api_id, value, status_class)
);
CREATE INDEX dashboard_analytics_minutes_age ON dashboard_analytics_minutes (minute);

CREATE TABLE dashboard_analytics_log (
  id bigserial PRIMARY KEY,
  org_id text NOT NULL REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  time timestamptz NOT NULL,
  api_id text NOT NULL,
  api_version text NOT NULL,
  key_hash text NOT NULL,
  alias text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  tracked_path text NOT NULL,
  status smallint NOT NULL,
  latency_ms double precision NOT NULL,
  upstream_latency_ms double precision NOT NULL,
  tags jsonb NOT NULL,
  request text NOT NULL,
  response text NOT NULL
);
CREATE INDEX dashboard_analytics_log_org ON dashboard_analytics_log (org_id, time, id);
CREATE INDEX dashboard_analytics_log_age ON dashboard_analytics_log (time);
`,
  },
  {
    // Issue 14: the web UI's sign-in sessions (session/store.ts). Only digests: the SHA-256 of the token the cookie
    // carries, and of the access key the user signed in with (a key reset therefore ends every session opened with
    // the old key). A session goes with its user and organisation.
    version: 4,
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
  // Issue 17: the classic portal (portal/migration.ts).
  PORTAL_MIGRATION,
  // Issue 17: the developer portal's sessions and approved keys awaiting their developer (portal-site/migration.ts).
  PORTAL_SITE_MIGRATION,
  {
    // Issue 14: the web UI's administrator sessions (session/admin-store.ts), opened with the admin secret. Only
    // digests: of the cookie's token and of the admin secret it was opened with (a changed secret ends them all).
    version: 7,
    name: 'web UI administrator sessions',
    sql: `
CREATE TABLE dashboard_admin_sessions (
  token_sha256 text PRIMARY KEY,
  admin_secret_sha256 text NOT NULL,
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX dashboard_admin_sessions_expiry ON dashboard_admin_sessions (expires_at);
`,
  },
  {
    // Issue 23: a value one organisation holds must not be refused to another (a 409 told it existed). Keys are
    // unique per organisation (a gateway serving several keeps the oldest of a shared value, node-ids.ts), and a
    // user's e-mail address per organisation (users sign in with their access key, never by e-mail). Listen paths
    // are indexed for prefix search: a route nested in another organisation's is refused (api-writes.ts).
    version: 8,
    name: 'keys and user e-mail addresses per organisation; listen path prefix index',
    sql: `
ALTER TABLE dashboard_keys DROP CONSTRAINT dashboard_keys_pkey;
ALTER TABLE dashboard_keys ADD PRIMARY KEY (org_id, storage_id);
ALTER TABLE dashboard_users DROP CONSTRAINT dashboard_users_email_address_key;
CREATE UNIQUE INDEX dashboard_users_org_email ON dashboard_users (org_id, email_address);
CREATE INDEX dashboard_apis_listen_path ON dashboard_apis (listen_path text_pattern_ops);
`,
  },
  {
    // Issue 24 item 8: the Kubernetes object an API or policy was written from (k8s-owner.ts), and the
    // organisation's switch letting people edit such objects by hand anyway.
    version: 9,
    name: 'Kubernetes owners of APIs and policies; allow_hand_edits',
    sql: `
CREATE TABLE dashboard_k8s_owners (
  org_id text NOT NULL REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  kind text NOT NULL,
  id text NOT NULL,
  k8s_object text NOT NULL,
  PRIMARY KEY (org_id, kind, id)
);
ALTER TABLE dashboard_orgs ADD COLUMN allow_hand_edits boolean NOT NULL DEFAULT false;
`,
  },
  // Issue 28 item 7: a declined key request keeps the admin's reason (portal/migration.ts).
  PORTAL_DECLINE_MIGRATION,
  // Issue 28 item 8: developers' e-mail verification and password-reset tokens (portal-site/migration.ts).
  PORTAL_ACCOUNT_TOKENS_MIGRATION,
  {
    // Issue 28: user groups (Tyk Dashboard's /api/usergroups; a member holds its group's permissions), a user's
    // own password for the web UI's e-mail sign-in (bcrypt; NULL: none set), and the audit log of writes
    // (audit.ts: who, what, when, from where; never a body or a secret). A group with members cannot be deleted.
    version: 12,
    name: 'user groups, user passwords, audit log',
    sql: `
CREATE TABLE dashboard_user_groups (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  permissions jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dashboard_user_groups_org ON dashboard_user_groups (org_id, created_at, id);
ALTER TABLE dashboard_users ADD COLUMN user_group_id text REFERENCES dashboard_user_groups (id);
ALTER TABLE dashboard_users ADD COLUMN password_bcrypt text;
CREATE INDEX dashboard_users_email ON dashboard_users (email_address);

CREATE TABLE dashboard_audit (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT clock_timestamp(),
  user_id text NOT NULL,
  user_email text NOT NULL,
  action text NOT NULL,
  object_type text NOT NULL,
  object_id text NOT NULL,
  client_ip text NOT NULL,
  via text NOT NULL
);
CREATE INDEX dashboard_audit_org ON dashboard_audit (org_id, at DESC, id DESC);
`,
  },
  // Issue 28 item 7: the portal's pages, menus and custom CSS; developers awaiting approval (portal/migration.ts).
  PORTAL_CONTENT_MIGRATION,
  {
    // Issue 28 item 6: the audit log is pruned past audit_retention_days across organisations (retention.ts);
    // this index keeps that delete from reading the whole table.
    version: 14,
    name: 'audit log age index',
    sql: `
CREATE INDEX dashboard_audit_age ON dashboard_audit (at);
`,
  },
];
