// The gateway's side of the dashboard's node API: GET /system/node/config with header x-gw-node-secret, optionally
// for one organisation, conditional on the version we hold (If-None-Match), so polling an unchanged dashboard
// costs one 304 and no parsing; POST /system/analytics with a batch of analytics records (the same credential
// and organisation), answering the dashboard's status for the shipper to judge.
import { request } from 'undici';
import { describeIssues } from '../../domain/zod-issues.ts';
import { DashboardSnapshot } from './snapshot.ts';

export type FetchResult = { changed: false } | { changed: true; snapshot: DashboardSnapshot };

export class NodeConfigClient {
  readonly url: string;
  readonly #secret: string;
  readonly #orgId: string;

  constructor(url: string, secret: string, orgId: string) {
    this.url = url.replace(/\/+$/, '');
    this.#secret = secret;
    this.#orgId = orgId;
  }

  /** Sends one batch ({"records": [...]}, serialised); the dashboard's HTTP status. Throws when it cannot be reached. */
  async postAnalytics(body: string, timeoutMs = 10_000): Promise<number> {
    const response = await request(`${this.url}/system/analytics${this.#orgQuery()}`, {
      method: 'POST',
      headers: { 'x-gw-node-secret': this.#secret, 'content-type': 'application/json' },
      body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    await response.body.dump();
    return response.statusCode;
  }

  #orgQuery(): string {
    return this.#orgId ? `?org_id=${encodeURIComponent(this.#orgId)}` : '';
  }

  async fetch(version: string | undefined, timeoutMs = 10_000): Promise<FetchResult> {
    const response = await request(`${this.url}/system/node/config${this.#orgQuery()}`, {
      headers: { 'x-gw-node-secret': this.#secret, ...(version ? { 'if-none-match': `"${version}"` } : {}) },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    if (response.statusCode === 304) {
      await response.body.dump();
      return { changed: false };
    }
    const text = await response.body.text();
    if (response.statusCode === 401 || response.statusCode === 403) throw new Error(`the dashboard refused the node secret (HTTP ${response.statusCode})`);
    if (response.statusCode !== 200) throw new Error(`the dashboard answered HTTP ${response.statusCode}: ${text.slice(0, 200)}`);
    const parsed = DashboardSnapshot.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`the dashboard's configuration is not what a gateway expects: ${describeIssues(parsed.error, { limit: 1 })}`);
    return { changed: true, snapshot: parsed.data };
  }
}
