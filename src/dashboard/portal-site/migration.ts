// The developer portal site's own tables (issue 17), one dashboard migration after the portal store's (listed in
// store/schema.ts): developers' sign-in sessions (developer-session.ts) and approved keys kept, encrypted, for
// their developer to see once (key-pickup.ts); then (version 11) the tokens of developers' account links
// (account-tokens.ts). Never edit a released migration: add the next version.
import type { Migration } from '../../db/migrate.ts';
import { DEVELOPER_SESSIONS_SQL } from './developer-session.ts';
import { KEY_PICKUPS_SQL } from './key-pickup.ts';
import { ACCOUNT_TOKENS_SQL } from './account-tokens.ts';

export const PORTAL_SITE_MIGRATION: Migration = {
  version: 6,
  name: 'developer portal: developer sessions and approved keys awaiting their developer',
  sql: `${DEVELOPER_SESSIONS_SQL}${KEY_PICKUPS_SQL}`,
};

/** Issue 28: single-use tokens of developers' e-mail verification and password-reset links (account-tokens.ts). */
export const PORTAL_ACCOUNT_TOKENS_MIGRATION: Migration = {
  version: 11,
  name: 'developer portal: e-mail verification and password-reset tokens',
  sql: ACCOUNT_TOKENS_SQL,
};
