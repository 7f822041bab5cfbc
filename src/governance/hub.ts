// A running governance hub: its database (storage.ts), its stores, the API (app.ts) and its listening socket.
// Start: open and migrate the database, make sure someone can administer it (the configured admin_token or an admin
// token in the database; otherwise MissingAdminTokenError and nothing listens), listen. Close: stop accepting,
// let requests in flight finish, close the database (which, for PGlite, writes it out and releases the lock).
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import { redactDatabaseUrl } from '../db/open.ts';
import { ApiLabelStore } from './api-labels.ts';
import { createGovernanceApp } from './app.ts';
import { Authenticator } from './auth.ts';
import type { GovernanceConfig } from './config.ts';
import { LabelStore } from './labels.ts';
import { openGovernanceStorage, type GovernanceStorage } from './storage.ts';
import { TokenStore } from './tokens.ts';

export class MissingAdminTokenError extends Error {
  constructor() {
    super(
      'admin_token is required while the database holds no admin token: set admin_token in the config file or GW_GOVERNANCE_ADMIN_TOKEN, or issue one with `gw governance token create --name NAME --role admin`',
    );
    this.name = 'MissingAdminTokenError';
  }
}

export class GovernanceHub {
  readonly log: Logger;
  readonly port: number;
  readonly #app: FastifyInstance;
  readonly #storage: GovernanceStorage;

  private constructor(log: Logger, app: FastifyInstance, storage: GovernanceStorage, port: number) {
    this.log = log;
    this.#app = app;
    this.#storage = storage;
    this.port = port;
  }

  static async start(config: GovernanceConfig, options: { log?: Logger } = {}): Promise<GovernanceHub> {
    const log = options.log ?? pino({ level: config.log_level });
    const storage = await openGovernanceStorage(config.database_url);
    try {
      const { db } = storage;
      const tokens = new TokenStore(db);
      if (config.admin_token === undefined && !(await tokens.hasAdmin())) throw new MissingAdminTokenError();
      const auth = new Authenticator(config.admin_token, tokens);
      const app = createGovernanceApp({ config, db, tokens, auth, log, labels: new LabelStore(db), apiLabels: new ApiLabelStore(db) });
      await app.listen({ host: config.listen_address, port: config.listen_port });
      const port = (app.server.address() as AddressInfo).port;
      log.info(
        { address: config.listen_address, port, database: `${db.kind} ${redactDatabaseUrl(config.database_url)}` },
        `governance hub listening on ${config.listen_address}:${port}`,
      );
      return new GovernanceHub(log, app, storage, port);
    } catch (error) {
      await storage.close();
      throw error;
    }
  }

  async close(): Promise<void> {
    try {
      await this.#app.close();
    } finally {
      await this.#storage.close();
    }
  }
}
