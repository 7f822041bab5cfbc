// A running dashboard: its database (migrated at start), its API and its listening socket. Everything it knows is
// in the database, so a restart on the same database loses nothing, and close() only has to stop accepting, let
// requests in flight finish, stop the retention timers (analytics, audit log) and close the database.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import type { Database } from '../db/database.ts';
import { openMigratedDatabase } from '../db/migrated.ts';
import { BCRYPT_COST, BcryptPool } from '../http/bcrypt-pool.ts';
import { redactDatabaseUrl } from '../db/open.ts';
import { createDashboardApp } from './app.ts';
import { SignInThrottle } from './session/sign-in-throttle.ts';
import type { DashboardConfig } from './config.ts';
import { MIGRATIONS, MIGRATIONS_TABLE } from './store/schema.ts';
import { Retention } from './retention.ts';
import { pruneAnalytics } from './store/analytics.ts';
import { pruneAudit } from './store/audit.ts';
import { tracingConfigFromEnv } from '../tracing/config.ts';
import { Tracer } from '../tracing/tracer.ts';

export class Dashboard {
  readonly config: DashboardConfig;
  readonly db: Database;
  readonly log: Logger;
  readonly #app: FastifyInstance;
  readonly #retention: Retention[];
  /** Hashes keys' basic-auth passwords off the event loop: one worker, at most 32 waiting (then 503). */
  readonly #bcrypt = new BcryptPool({ size: 1, queue: 32 });
  /** OpenTelemetry, on when OTEL_EXPORTER_OTLP_ENDPOINT is set (tracing/config.ts): a span per API write. */
  readonly #tracer: Tracer | undefined;

  private constructor(config: DashboardConfig, db: Database, log: Logger) {
    this.config = config;
    this.db = db;
    this.log = log;
    const tracing = tracingConfigFromEnv(process.env, 'gw-dashboard');
    this.#tracer = tracing.enabled
      ? new Tracer(tracing, { onExportError: (error) => log.debug({ err: error.message }, 'OpenTelemetry export failed; its spans are dropped') })
      : undefined;
    this.#app = createDashboardApp({
      db,
      config,
      log,
      signIn: new SignInThrottle(config),
      hashPassword: (plain) => this.#bcrypt.hash(plain, BCRYPT_COST),
      checkPassword: (plain, hash) => this.#bcrypt.compare(plain, hash),
      ...(this.#tracer ? { tracer: this.#tracer } : {}),
    });
    this.#retention = [
      new Retention(
        db,
        { what: 'analytics', retentionDays: config.analytics_retention_days, intervalSeconds: config.analytics_prune_interval_seconds, prune: pruneAnalytics },
        log,
      ),
      new Retention(
        db,
        { what: 'audit log', retentionDays: config.audit_retention_days, intervalSeconds: config.audit_prune_interval_seconds, prune: pruneAudit },
        log,
      ),
    ];
  }

  static async start(config: DashboardConfig, options: { log?: Logger } = {}): Promise<Dashboard> {
    const log = options.log ?? pino({ level: config.log_level });
    const { db, applied } = await openMigratedDatabase(config.database_url, MIGRATIONS_TABLE, MIGRATIONS);
    let app: FastifyInstance | undefined;
    let dashboard: Dashboard | undefined;
    try {
      log.info({ database: redactDatabaseUrl(config.database_url), engine: db.kind, migrations_applied: applied }, 'database ready');
      dashboard = new Dashboard(config, db, log);
      app = dashboard.#app;
      await app.listen({ host: config.listen_address, port: config.listen_port });
      return dashboard;
    } catch (error) {
      if (dashboard) await Promise.all(dashboard.#retention.map((r) => r.stop()));
      await app?.close().catch(() => undefined);
      await db.close().catch(() => undefined);
      throw error;
    }
  }

  get port(): number {
    return (this.#app.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    await this.#app.close();
    await Promise.all(this.#retention.map((r) => r.stop()));
    await this.#bcrypt.close();
    await this.#tracer?.shutdown();
    await this.db.close();
  }
}
