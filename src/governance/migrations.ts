// The governance hub's schema, as versioned migrations applied by db/migrate.ts into governance_migrations.
//   governance_tokens      issued API tokens: name, role, SHA-256 of the secret (the secret itself is never stored)
//   governance_labels      label definitions: display name (unique regardless of case), snake_case key (unique),
//                          value type, allowed values (empty for free text; the CHECK keeps type and values agreed)
//   governance_api_labels  labels applied to APIs: one value per (API, label); deleting a label removes them
// Migration 2 creates gw's documented default labels once: deleting or renaming one later is respected, never undone.
import type { Migration } from '../db/migrate.ts';

export const MIGRATIONS_TABLE = 'governance_migrations';

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'tokens, labels, labels applied to APIs',
    sql: `
CREATE TABLE governance_tokens (
  id text PRIMARY KEY,
  name text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'member')),
  secret_sha256 text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE governance_labels (
  id text PRIMARY KEY,
  key text NOT NULL UNIQUE,
  name text NOT NULL,
  value_type text NOT NULL CHECK (value_type IN ('free_text', 'predefined')),
  allowed_values text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((value_type = 'predefined') = (cardinality(allowed_values) > 0))
);
CREATE UNIQUE INDEX governance_labels_name ON governance_labels (lower(name));
CREATE TABLE governance_api_labels (
  api_id text NOT NULL,
  label_id text NOT NULL REFERENCES governance_labels (id) ON DELETE CASCADE,
  value text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (api_id, label_id)
);
CREATE INDEX governance_api_labels_label ON governance_api_labels (label_id, value);
`,
  },
  {
    version: 2,
    name: 'default labels: Business Domain, API Criticality',
    sql: `
INSERT INTO governance_labels (id, key, name, value_type, allowed_values) VALUES
  (gen_random_uuid()::text, 'business_domain', 'Business Domain', 'free_text', '{}'),
  (gen_random_uuid()::text, 'api_criticality', 'API Criticality', 'predefined', ARRAY['Tier 1', 'Tier 2', 'Tier 3'])
ON CONFLICT DO NOTHING;
`,
  },
];
