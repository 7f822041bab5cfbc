// What the governance API's routes are given: the database and the stores over it, the authenticator, the log.
import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import type { ApiLabelStore } from './api-labels.ts';
import type { Authenticator } from './auth.ts';
import type { GovernanceConfig } from './config.ts';
import type { LabelStore } from './labels.ts';
import type { TokenStore } from './tokens.ts';

export interface HubDeps {
  config: GovernanceConfig;
  db: Database;
  labels: LabelStore;
  apiLabels: ApiLabelStore;
  tokens: TokenStore;
  auth: Authenticator;
  log: Logger;
}
