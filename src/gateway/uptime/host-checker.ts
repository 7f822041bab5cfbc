// Uptime tests, as Tyk Gateway's host checker runs them: every uptime_tests.config.time_wait seconds each distinct
// check of the loaded APIs is sent (at most checker_pool_size at once, 0: one per CPU): an HTTP request with its method, headers and
// body, `Connection: close`, bounded by the check's timeout (else time_wait). Healthy only on exactly 200. A host
// (host:port) goes down after failure_trigger_sample_size failed checks (successes before that do not reset the
// count, as with Tyk) and fires HostDown (`Uptime test failed`) for each API that checks it; once down, each success
// takes one off the count and at zero it is up again: HostUp (`Uptime test succeeded`). Load balancing asks isDown
// (proxy/target-selection.ts). Each gateway process checks on its own (Tyk elects one poller through Redis).
// A reload keeps what is known of a check that is still configured.
// On several worker threads (`shared`), one worker probes (and fires the events, once per gateway) and publishes
// the hosts it has down; the others send no check and answer isDown from what it published.
import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import { request } from 'undici';
import type { ApiSpec, UptimeCheckSpec } from '../definition/api-spec.ts';
import type { GatewayConfig } from '../config.ts';
import type { EventBus } from '../events.ts';

export interface HostHealth {
  /** A check of this host (host:port) has it down. */
  isDown(host: string): boolean;
}

interface CheckState {
  check: UptimeCheckSpec;
  /** The APIs that configured it: events are fired for each. */
  apis: { id: string; orgId: string }[];
  failures: number;
  down: boolean;
}

/** How the checkers of a gateway's worker threads share one set of checks (workers/worker-link.ts). */
export interface SharedHostHealth {
  /** This worker sends the checks and fires the events; the others follow what it publishes. */
  readonly probes: boolean;
  /** The prober's hosts down, after each change (and after its first round), to every other worker. */
  publish(down: string[]): void;
  /** A follower's listener for what the prober publishes. */
  follow(listener: (down: string[]) => void): void;
}

/** Sends one check; resolves with the status, rejects when there was no answer within timeoutMs. */
export type CheckRequest = (check: UptimeCheckSpec, timeoutMs: number) => Promise<number>;

export class UptimeChecker implements HostHealth {
  readonly #settings: GatewayConfig['uptime_tests'];
  readonly #events: Pick<EventBus, 'emit'>;
  readonly #log: Logger;
  readonly #send: CheckRequest;
  /** By check (method + URL). */
  #checks = new Map<string, CheckState>();
  /** host:port -> how many of its checks have it down. */
  readonly #downHosts = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<void> | undefined;
  #stopped = false;
  readonly #shared: SharedHostHealth | undefined;
  /** A follower's hosts down, as the prober last published them. */
  #followed = new Set<string>();
  /** What the prober last published (undefined: nothing yet). */
  #published: string | undefined;

  constructor(settings: GatewayConfig['uptime_tests'], events: Pick<EventBus, 'emit'>, log: Logger, send: CheckRequest = sendCheck, shared?: SharedHostHealth) {
    this.#settings = settings;
    this.#events = events;
    this.#log = log;
    this.#send = send;
    this.#shared = shared;
    if (shared && !shared.probes) shared.follow((down) => (this.#followed = new Set(down)));
  }

  isDown(host: string): boolean {
    if (this.#shared && !this.#shared.probes) return this.#followed.has(host);
    return (this.#downHosts.get(host) ?? 0) > 0;
  }

  /** The loaded APIs' checks replace the previous ones (state kept for the checks that remain). */
  use(specs: Iterable<ApiSpec>): void {
    if (this.#settings.disable || (this.#shared && !this.#shared.probes)) return;
    const next = new Map<string, CheckState>();
    for (const spec of specs) {
      for (const check of spec.uptime?.checks ?? []) {
        const id = checkId(check);
        let state = next.get(id);
        if (!state) {
          state = this.#checks.get(id) ?? { check, apis: [], failures: 0, down: false };
          state.apis = [];
          state.check = check;
          next.set(id, state);
        }
        state.apis.push({ id: spec.id, orgId: spec.orgId });
      }
    }
    for (const [id, state] of this.#checks) if (!next.has(id) && state.down) this.#markUp(state, false);
    this.#checks = next;
    if (next.size > 0 && !this.#timer && !this.#round && !this.#stopped) this.#schedule(0);
  }

  /** Runs one round of every check now (tests drive the checker this way: no timer). */
  async runRound(): Promise<void> {
    const queue = [...this.#checks.values()];
    const worker = async (): Promise<void> => {
      for (let state = queue.shift(); state; state = queue.shift()) await this.#runCheck(state);
    };
    const poolSize = this.#settings.config.checker_pool_size || availableParallelism();
    await Promise.all(Array.from({ length: Math.min(poolSize, queue.length) }, worker));
    this.#publish();
  }

  /** Tells the other workers the hosts down, when that changed since last told (always the first time). */
  #publish(): void {
    if (!this.#shared) return;
    const down = [...this.#downHosts.keys()].sort();
    const text = JSON.stringify(down);
    if (text === this.#published) return;
    this.#published = text;
    this.#shared.publish(down);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#round;
  }

  #schedule(delayMs: number): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#round = this.runRound().finally(() => {
        this.#round = undefined;
        if (!this.#stopped && this.#checks.size > 0) this.#schedule(this.#settings.config.time_wait * 1000);
      });
    }, delayMs);
    this.#timer.unref();
  }

  async #runCheck(state: CheckState): Promise<void> {
    const timeoutMs = state.check.timeoutMs ?? this.#settings.config.time_wait * 1000;
    let reason: string | undefined;
    try {
      const status = await this.#send(state.check, timeoutMs);
      if (status !== 200) reason = `answered ${status}`;
    } catch (error) {
      reason = (error as { code?: string }).code ?? String(error);
    }
    if (this.#checks.get(checkId(state.check)) !== state) return; // removed by a reload meanwhile
    const samples = this.#settings.config.failure_trigger_sample_size;
    if (reason !== undefined) {
      state.failures = Math.min(state.failures + 1, samples);
      if (!state.down && state.failures >= samples) {
        state.down = true;
        this.#downHosts.set(state.check.host, (this.#downHosts.get(state.check.host) ?? 0) + 1);
        this.#publish();
        this.#fire(state, 'HostDown', 'Uptime test failed', reason);
      }
    } else if (state.down && --state.failures <= 0) this.#markUp(state, true);
  }

  #markUp(state: CheckState, announce: boolean): void {
    state.down = false;
    state.failures = 0;
    const left = (this.#downHosts.get(state.check.host) ?? 1) - 1;
    if (left > 0) this.#downHosts.set(state.check.host, left);
    else this.#downHosts.delete(state.check.host);
    if (this.#published !== undefined) this.#publish();
    if (announce) this.#fire(state, 'HostUp', 'Uptime test succeeded');
  }

  #fire(state: CheckState, type: 'HostDown' | 'HostUp', message: string, reason?: string): void {
    this.#log.debug({ check: state.check.url, type }, 'uptime check changed state');
    for (const api of state.apis) {
      this.#events.emit({
        type,
        message,
        api_id: api.id,
        org_id: api.orgId,
        key: '',
        path: state.check.url,
        origin: '',
        meta: { host: state.check.host, url: state.check.url, ...(reason ? { reason } : {}) },
      });
    }
  }
}

function checkId(check: UptimeCheckSpec): string {
  return `${check.method} ${check.url}`;
}

async function sendCheck(check: UptimeCheckSpec, timeoutMs: number): Promise<number> {
  const response = await request(check.url, {
    method: check.method as 'GET',
    headers: check.headers,
    ...(check.body !== undefined ? { body: check.body } : {}),
    reset: true, // Connection: close, as Tyk's checker
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  await response.body.dump();
  return response.statusCode;
}
