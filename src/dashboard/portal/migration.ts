// The classic portal's tables (issue 17), one dashboard migration (version 5, listed in store/schema.ts). Every row
// carries its org_id and goes with its organisation. A catalogue and a configuration are one per organisation
// (UNIQUE org_id); documentation is stored as sent (base64 Swagger/OpenAPI text, a URL, GraphQL SDL); a
// developer's email is unique within the organisation only (another organisation's portal is another world), and
// only the scrypt hash of the password is stored. A key request goes with its developer. Never edit a released
// migration: add the next version.
import type { Migration } from '../../db/migrate.ts';

export const PORTAL_MIGRATION: Migration = {
  version: 5,
  name: 'classic portal: catalogue, documentation, configuration, developers, key requests',
  sql: `
CREATE TABLE dashboard_portal_catalogues (
  id text PRIMARY KEY,
  org_id text NOT NULL UNIQUE REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  email text NOT NULL DEFAULT '',
  apis jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE dashboard_portal_docs (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  api_id text NOT NULL DEFAULT '',
  doc_type text NOT NULL,
  documentation text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dashboard_portal_docs_org ON dashboard_portal_docs (org_id, id);

CREATE TABLE dashboard_portal_configs (
  id text PRIMARY KEY,
  org_id text NOT NULL UNIQUE REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  config jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE dashboard_portal_developers (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  email text NOT NULL,
  password_hash text NOT NULL,
  inactive boolean NOT NULL DEFAULT false,
  fields jsonb NOT NULL DEFAULT '{}',
  keys jsonb NOT NULL DEFAULT '{}',
  subscriptions jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX dashboard_portal_developers_email ON dashboard_portal_developers (org_id, lower(email));
CREATE INDEX dashboard_portal_developers_org ON dashboard_portal_developers (org_id, created_at, id);

CREATE TABLE dashboard_portal_key_requests (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  by_user text NOT NULL REFERENCES dashboard_portal_developers (id) ON DELETE CASCADE,
  apply_policies jsonb NOT NULL,
  fields jsonb NOT NULL DEFAULT '{}',
  version text NOT NULL DEFAULT 'v2',
  approved boolean NOT NULL DEFAULT false,
  key_id text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dashboard_portal_key_requests_org ON dashboard_portal_key_requests (org_id, created_at, id);
CREATE INDEX dashboard_portal_key_requests_developer ON dashboard_portal_key_requests (by_user, created_at, id);
`,
};

/**
 * Version 10: a declined key request is kept with the admin's reason (Tyk deletes it), so the developer sees on
 * "My keys" that it was declined and why. A pending request is one neither approved nor declined.
 */
export const PORTAL_DECLINE_MIGRATION: Migration = {
  version: 10,
  name: 'classic portal: declined key requests keep their reason',
  sql: `
ALTER TABLE dashboard_portal_key_requests ADD COLUMN declined boolean NOT NULL DEFAULT false;
ALTER TABLE dashboard_portal_key_requests ADD COLUMN decline_reason text NOT NULL DEFAULT '';
`,
};

/**
 * Version 13 (issue 28 item 7): the portal's content as Tyk's classic portal has it: pages (Markdown fields, one
 * slug per organisation, at most one homepage), the menus (one document per organisation: menu name -> items)
 * and the custom CSS (one per organisation); and developers waiting for an administrator's approval
 * (require_developer_approval).
 */
export const PORTAL_CONTENT_MIGRATION: Migration = {
  version: 13,
  name: 'classic portal: pages, menus, custom CSS, developers awaiting approval',
  sql: `
CREATE TABLE dashboard_portal_pages (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  title text NOT NULL,
  slug text NOT NULL,
  template_name text NOT NULL DEFAULT '',
  fields jsonb NOT NULL DEFAULT '{}',
  is_homepage boolean NOT NULL DEFAULT false,
  is_live boolean NOT NULL DEFAULT true,
  page_settings jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX dashboard_portal_pages_slug ON dashboard_portal_pages (org_id, lower(slug));
CREATE UNIQUE INDEX dashboard_portal_pages_homepage ON dashboard_portal_pages (org_id) WHERE is_homepage;
CREATE INDEX dashboard_portal_pages_org ON dashboard_portal_pages (org_id, created_at, id);

CREATE TABLE dashboard_portal_menus (
  id text PRIMARY KEY,
  org_id text NOT NULL UNIQUE REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  menus jsonb NOT NULL DEFAULT '{}',
  is_active boolean NOT NULL DEFAULT true
);

CREATE TABLE dashboard_portal_css (
  id text PRIMARY KEY,
  org_id text NOT NULL UNIQUE REFERENCES dashboard_orgs (id) ON DELETE CASCADE,
  page_css text NOT NULL DEFAULT '',
  email_css text NOT NULL DEFAULT '',
  updated_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE dashboard_portal_developers ADD COLUMN awaiting_approval boolean NOT NULL DEFAULT false;
`,
};
