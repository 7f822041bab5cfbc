// Coalesced gateway reloads (docs/architecture.md §4) and whether they happened: any number of reload requests within
// `debounceMs` become one reload; a request arriving while a reload runs schedules exactly one more after it, no
// sooner than the last reload took (and at least `debounceMs`) after it ended: a gateway whose reload takes a second
// (10 000 APIs, each worker compiling all of them) is left as long to answer writes between two reloads, rather
// than reloading back to back while a burst of writes keeps requesting (it served ~12 writes/s that way).
// A failed reload is never dropped: it is retried with backoff (default 500 ms doubling to 30 s, jittered) until
// one succeeds or the reloader stops. Each request gets a ticket; state(ticket) says whether a successful reload
// has covered it (done), none has yet (pending), or the last attempt failed (failed, with the error), so the
// resources written before it are reported not Ready until their change is live. Listeners registered with
// afterNextAttempt are told once after the next attempt ends, whatever its outcome. It never throws into a reconcile.
// After each successful reload it reads what that load could not serve (client.loadProblems: a gateway's
// /gw/load-problems), answered by problemOf(apiId) until the next one, and tells the onLoaded listeners; where the
// client cannot know (a dashboard) or the read failed, problemOf answers undefined.
import type { Logger } from 'pino';
import { Backoff, type BackoffOptions } from '../../kube/backoff.ts';
import type { ApiLoadProblem, ManagementClient } from '../../mgmt/client.ts';

export type ReloadState = { state: 'done' } | { state: 'pending' } | { state: 'failed'; error: string };

export interface ReloaderOptions {
  /** Requests within this window become one reload. */
  debounceMs: number;
  /** Delays between retries of a failed reload. Default 500 ms doubling to 30 s. */
  retry?: BackoffOptions;
}

const DEFAULT_RETRY: BackoffOptions = { initialMs: 500, maxMs: 30_000 };

export class Reloader {
  readonly #client: ManagementClient;
  readonly #options: ReloaderOptions;
  readonly #log: Logger;
  #backoff: Backoff;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = false;
  /** Tickets handed out so far (the last one). */
  #requested = 0;
  /** Every ticket up to this one was covered by a successful reload. */
  #served = 0;
  #lastError: string | undefined;
  /** How long the last reload attempt took: the least gap before the next one. */
  #lastReloadMs = 0;
  #listeners: (() => void)[] = [];
  /** What the last load could not serve, by API id; undefined: not known (not read yet, or not readable). */
  #problems: Map<string, ApiLoadProblem> | undefined;
  #problemsRead = false;
  readonly #loadedListeners: (() => void)[] = [];
  /** Reloads actually sent (metrics, tests). */
  sent = 0;

  constructor(client: ManagementClient, options: ReloaderOptions, log: Logger) {
    this.#client = client;
    this.#options = options;
    this.#log = log;
    this.#backoff = new Backoff(options.retry ?? DEFAULT_RETRY);
  }

  /** Asks for a reload; answers the ticket to pass to state(). */
  request(): number {
    this.#requested++;
    this.#schedule(this.#options.debounceMs);
    return this.#requested;
  }

  /** Whether a successful reload has made the changes written before `ticket` live. */
  state(ticket: number): ReloadState {
    if (ticket <= this.#served) return { state: 'done' };
    return this.#lastError === undefined ? { state: 'pending' } : { state: 'failed', error: this.#lastError };
  }

  /** The load problem of an API, as the gateway reported it after the last successful reload. */
  problemOf(apiId: string): ApiLoadProblem | undefined {
    return this.#problems?.get(apiId);
  }

  /** Whether the load problems were read at least once (after a reload, or by readProblems), successfully or not. */
  get problemsRead(): boolean {
    return this.#problemsRead || !this.#client.loadProblems;
  }

  /** Reads the gateway's load problems without reloading (an operator that started after the gateway's last load). */
  async readProblems(signal?: AbortSignal): Promise<void> {
    if (!this.#client.loadProblems) return;
    this.#problemsRead = true;
    try {
      this.#problems = new Map((await this.#client.loadProblems(signal)).map((p) => [p.id, p]));
    } catch (error) {
      if (signal?.aborted) throw error;
      this.#problems = undefined;
      this.#log.warn({ gateway: this.#client.url, err: (error as Error).message }, "cannot read the gateway's load problems");
    }
  }

  /** Calls `listener` after every successful reload, once its load problems were read. */
  onLoaded(listener: () => void): void {
    this.#loadedListeners.push(listener);
  }

  /** Calls `listener` once, after the next reload attempt ends (success or failure). */
  afterNextAttempt(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** Waits for the scheduled or running reload (tests, shutdown); a failing reload keeps it waiting. */
  async settled(): Promise<void> {
    while (this.#timer || this.#running) await (this.#running ?? new Promise((r) => setTimeout(r, this.#options.debounceMs)));
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#running = this.#reload().then((retryInMs) => {
        this.#running = undefined;
        // A request made meanwhile gets its reload soon; otherwise a failure is retried after its backoff.
        const again = this.#again;
        this.#again = false;
        if (again) this.#schedule(Math.max(this.#options.debounceMs, this.#lastReloadMs));
        else if (retryInMs !== undefined) this.#schedule(retryInMs);
      });
    }, delayMs);
  }

  /** One attempt; answers the delay before retrying when it failed. */
  async #reload(): Promise<number | undefined> {
    const covering = this.#requested;
    const started = performance.now();
    try {
      this.sent++;
      await this.#client.reload();
      await this.readProblems();
      this.#served = Math.max(this.#served, covering);
      this.#lastError = undefined;
      this.#backoff = new Backoff(this.#options.retry ?? DEFAULT_RETRY);
      for (const listener of this.#loadedListeners) listener();
      return undefined;
    } catch (error) {
      this.#lastError = (error as Error).message;
      const retryInMs = this.#backoff.delay();
      this.#log.warn({ gateway: this.#client.url, err: this.#lastError, retryInMs }, 'gateway reload failed: retrying');
      return retryInMs;
    } finally {
      this.#lastReloadMs = performance.now() - started;
      for (const listener of this.#listeners.splice(0)) listener();
    }
  }
}
