// What every group of dashboard routes is given: the database, the configuration and the log. Routes hold no
// other state; everything lives in the database, so several dashboard processes may share one PostgreSQL. The one
// exception is signIn: failed sign-in counts, kept in this process's memory (session/sign-in-throttle.ts); and
// hashPassword and checkPassword, the process's bcrypt worker pool (http/bcrypt-pool.ts) hashing keys' basic-auth
// passwords and users' passwords.
import type { Tracer } from '../tracing/tracer.ts';
import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import type { PasswordHasher } from '../http/basic-auth-data.ts';
import type { DashboardConfig } from './config.ts';
import type { SignInThrottle } from './session/sign-in-throttle.ts';

export interface DashboardDeps {
  db: Database;
  config: DashboardConfig;
  log: Logger;
  signIn: SignInThrottle;
  hashPassword: PasswordHasher;
  /** Whether a password matches a bcrypt hash, in the same worker pool (users' e-mail sign-in). */
  checkPassword: (plain: string, hash: string) => Promise<boolean>;
  /** OpenTelemetry (OTEL_EXPORTER_OTLP_ENDPOINT): the API's writes get a span (tracing/http-writes.ts). */
  tracer?: Tracer;
}
