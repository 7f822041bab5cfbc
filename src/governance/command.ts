// `gw governance`: runs the governance hub (labels on APIs, search and filter by label) until SIGINT/SIGTERM.
//   gw governance [--config FILE]            configuration file (JSON); GW_GOVERNANCE_* environment variables override it
//   gw governance --config-reference         prints every option with its default and environment variable
//   gw governance token create ...           issues a token into the database (token-command.ts)
//
// How an admin token for the governance API is issued (gw's design leaves it open; this is our answer):
//   1. Bootstrap: the operator of the hub sets admin_token (config file, or GW_GOVERNANCE_ADMIN_TOKEN). It is the
//      first admin credential, sent as X-API-Key; it is compared in constant time and never logged. The hub refuses
//      to start (exit 2) without it while the database holds no admin token, so a fresh hub is never unmanaged.
//   2. An admin issues further tokens with POST /api/tokens {name, role: admin|member}: the answer carries the token
//      once; the database keeps only its SHA-256. DELETE /api/tokens/{id} revokes one.
//   3. Whoever can reach the database (and the configuration) can issue a token without any credential:
//      `gw governance token create --name NAME --role admin`. Once an admin token exists, admin_token may be
//      removed from the configuration.
import { runServiceCommand } from '../config/command.ts';
import { configReference, loadGovernanceConfig } from './config.ts';
import { DirectoryLockedError } from '../db/directory-lock.ts';
import { GovernanceHub, MissingAdminTokenError } from './hub.ts';
import { governanceToken } from './token-command.ts';

export const usage = `usage: gw governance [--config FILE] [--config-reference]
       gw governance token create --name NAME --role admin|member [--config FILE]

Runs the governance hub: labels on APIs, filter and search by label, at http://<listen_address>:<listen_port>/api/.
Every request under /api/ carries a token in the X-API-Key header; members read, admins also write.

  --config FILE         JSON configuration (see --config-reference); GW_GOVERNANCE_<KEY> environment variables override it
  --config-reference    print every configuration option with its default and environment variable, then exit

Issuing admin tokens:
  1. The first admin credential is admin_token in the configuration (or GW_GOVERNANCE_ADMIN_TOKEN, at least 16
     characters, e.g. from \`openssl rand -hex 32\`). The hub will not start without it until the database holds
     an admin token.
  2. An admin issues more tokens: POST /api/tokens {"name": "ci", "role": "admin"|"member"} answers the token once
     (only its SHA-256 is stored); GET /api/tokens lists them, DELETE /api/tokens/{id} revokes one.
  3. Without any credential, whoever can reach the database issues one directly:
       gw governance token create --name NAME --role admin [--config FILE]
     (with the embedded PGlite database, stop the hub first). Then admin_token may be dropped from the configuration.
`;

export async function governance(argv: string[]): Promise<number> {
  if (argv[0] === 'token') return governanceToken(argv.slice(1));
  return runServiceCommand(argv, {
    name: 'governance',
    usage,
    configReference,
    loadConfig: (file) => loadGovernanceConfig(file),
    start: (config) => GovernanceHub.start(config),
    refusal: (error) => (error instanceof MissingAdminTokenError ? 2 : error instanceof DirectoryLockedError ? 1 : undefined),
  });
}
