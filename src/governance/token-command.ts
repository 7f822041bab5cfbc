// `gw governance token create`: issues an API token by writing it straight into the hub's database — the way to get
// the first admin token without one, or a new one after losing every admin credential. The secret goes to standard
// output alone (so `TOKEN=$(gw governance token create ...)` works) and is shown only this once; the rest of the
// report goes to standard error. On an embedded PGlite database the hub must be stopped first (db/directory-lock.ts);
// on PostgreSQL it may keep running: it looks tokens up in the database on every request.
import { parseArgs } from 'node:util';
import { describeIssues } from '../domain/zod-issues.ts';
import { TokenBody } from './bodies.ts';
import { loadGovernanceConfig } from './config.ts';
import { ConfigError } from '../config/file-and-env.ts';
import { DirectoryLockedError } from '../db/directory-lock.ts';
import { openGovernanceStorage } from './storage.ts';
import { TokenStore } from './tokens.ts';

export const tokenUsage = `usage: gw governance token create --name NAME --role admin|member [--config FILE]

Issues an API token for the governance hub, writing it into the hub's database (database_url of the
configuration). The token is printed on standard output, once: it is stored only as its SHA-256.
Send it as the X-API-Key header. With an embedded (PGlite) database stop the hub first; with
PostgreSQL the running hub accepts the token at once.

  --name NAME       who or what holds the token (shown in GET /api/tokens and in logs)
  --role ROLE       admin (may create, change and delete labels, apply labels, manage tokens) or member (reads)
  --config FILE     the hub's JSON configuration; GW_GOVERNANCE_<KEY> environment variables override it
`;

export async function governanceToken(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (action === undefined || action === '--help' || action === '-h' || action === 'help') {
    (action === undefined ? process.stderr : process.stdout).write(tokenUsage);
    return action === undefined ? 2 : 0;
  }
  if (action !== 'create') {
    process.stderr.write(`gw governance token: unknown action "${action}"\n\n${tokenUsage}`);
    return 2;
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: { name: { type: 'string' }, role: { type: 'string' }, config: { type: 'string', short: 'c' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    process.stderr.write(`gw governance token create: ${(error as Error).message}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(tokenUsage);
    return 0;
  }
  const body = TokenBody.safeParse({ name: values.name, role: values.role });
  if (!body.success) {
    process.stderr.write(`gw governance token create: ${describeIssues(body.error, { root: '(body)' }).replace(/(^|; )(name|role):/g, '$1--$2:')}\n`);
    return 2;
  }
  let databaseUrl: string;
  try {
    databaseUrl = loadGovernanceConfig(values.config).config.database_url;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`gw governance token create: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  let storage;
  try {
    storage = await openGovernanceStorage(databaseUrl);
  } catch (error) {
    if (error instanceof DirectoryLockedError) {
      process.stderr.write(`gw governance token create: ${error.message}: stop it first, or issue the token through POST /api/tokens\n`);
      return 1;
    }
    throw error;
  }
  try {
    const issued = await new TokenStore(storage.db).issue(body.data);
    process.stdout.write(`${issued.token}\n`);
    process.stderr.write(`issued ${issued.role} token "${issued.name}" (id ${issued.id}); it is shown only now: send it as X-API-Key\n`);
    return 0;
  } finally {
    await storage.close();
  }
}
