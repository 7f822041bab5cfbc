// The gateway on several cores: the primary thread starts `workers` worker threads (worker-main.ts), each a whole
// Gateway accepting connections itself on the shared ports (SO_REUSEPORT), and owns what must exist once:
//   - the embedded store (its journal, its directory lock): workers call it (store-owner.ts); its rate windows and
//     quota counters are shared with the workers (store/shared-counters.ts), which decide limits themselves under
//     one lock, so limits stay exact; with Redis each worker uses Redis itself;
//   - reload rounds: a reload asked of any worker (or the group's, received by worker 0) makes every worker build
//     its new table (prepare), then, once all have, switch to it (commit); the asker is answered when all serve it.
//     Rounds run one at a time (the first once every worker listens); asks during one collapse into one more round;
//   - the change feed's version (every worker serves the same version and epoch) and the metrics scrape (every
//     worker's counters, summed by prom-client's aggregator);
//   - the basic-auth lock-out's counters (credentials/lockouts.ts): N failures lock a user out whichever workers
//     they reached;
//   - streams (streams/stream-runtime.ts): worker 0 alone consumes broker inputs; a message for subscribers goes
//     to every worker's subscribers (its own worker's too: one order for all);
//   - the uptime checks' verdict: worker 0 alone runs the checks (one probe and one HostDown/HostUp event per
//     gateway); the hosts it has down are relayed to every other worker, whose load balancing skips them too.
// A worker that dies (an uncaught exception, out of memory) is restarted as a supervisor would (restart-policy.ts):
// logged at error, counted in gw_gateway_worker_restarts_total; the others serve meanwhile; the new one loads the
// current routing table before it listens. Too many deaths within the window stop the gateway (exit 1).
import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { AggregatorRegistry, Counter, Registry } from 'prom-client';
import type { GatewayConfig } from '../config.ts';
import { LocalLockouts } from '../credentials/lockouts.ts';
import { passwordGuard } from '../credentials/basic-passwords.ts';
import { openStore } from '../store/open.ts';
import type { Store } from '../store/store.ts';
import { RestartPolicy, workerRestartLimits } from './restart-policy.ts';
import { StoreOwner } from './store-owner.ts';
import { EmbeddedStore } from '../store/embedded.ts';
import type { SharedCounterDirectory } from '../store/shared-counter-directory.ts';
import { serializeError, type Broadcast, type SerializedError, type ToPrimary, type ToWorker, type WorkerStart } from './protocol.ts';

type Ports = { proxy: number; control: number; https: number };

interface Member {
  index: number;
  thread: Worker;
  ports: Ports | undefined;
  waiting: Map<string, (message: ToPrimary) => void>;
  /** It exited: nothing asked of it is answered. */
  left: boolean;
}

export class WorkerGateway {
  readonly log: Logger;
  readonly #store: Store | undefined;
  readonly #owner: StoreOwner | undefined;
  readonly #members: Member[] = [];
  readonly #epoch = randomUUID();
  #version = 0;
  #rounds = 0;
  #round: Promise<void> | undefined;
  #queued: Promise<void> | undefined;
  #nextId = 1;
  #closing = false;
  /** Every worker of the start listened: from now on a worker that dies is restarted. */
  #running = false;
  /** The configuration every worker starts with (the proxy port fixed once the first listens). */
  #config: GatewayConfig | undefined;
  readonly #restarts = new RestartPolicy(workerRestartLimits());
  readonly #registry = new Registry();
  readonly #restartCount = new Counter({
    name: 'gw_gateway_worker_restarts_total',
    help: 'Gateway worker threads restarted after dying.',
    registers: [this.#registry],
  });
  /** What worker 0's uptime checks last said was down (sent to a worker that starts later). */
  #downHosts: string[] = [];
  /** Resolves once every worker listens: rounds wait for it, so none leaves a starting worker behind. */
  readonly #started: Promise<void>;
  #startedNow: () => void = () => undefined;

  readonly #lockouts: LocalLockouts;

  private constructor(config: GatewayConfig, store: Store | undefined, log: Logger) {
    this.#store = store;
    this.#lockouts = new LocalLockouts(passwordGuard(config.basic_auth_checks), Date.now);
    this.log = log;
    this.#started = new Promise((resolveStarted) => (this.#startedNow = resolveStarted));
    this.#owner = store
      ? new StoreOwner(store, {
          reloadRequested: () => void this.reload().catch((error: unknown) => this.log.error({ err: String(error) }, 'group reload failed')),
          keyChanged: (from, storageId) => {
            for (const member of this.#members) if (member.index !== from) member.thread.postMessage({ t: 'keyChanged', storageId } satisfies ToWorker);
          },
        })
      : undefined;
  }

  /** Opens the store (embedded: here, once), starts `count` workers and resolves once every one listens. */
  static async start(config: GatewayConfig, count: number, log: Logger): Promise<WorkerGateway> {
    const store = config.storage.type === 'embedded' ? await openStore(config) : undefined;
    // Each count written before its request goes on (sync_counters) is the primary's to write: no sharing then.
    if (store instanceof EmbeddedStore && !config.storage.sync_counters) store.shareCounters();
    const primary = new WorkerGateway(config, store, log);
    try {
      // Port 0 (any free port): the first worker picks it, the others join it once it has.
      if (config.listen_port === 0) {
        const first = await primary.#spawn(0, config);
        primary.#config = { ...config, listen_port: first.proxy };
        await Promise.all(Array.from({ length: count - 1 }, (_, i) => primary.#spawn(i + 1, primary.#config!)));
      } else {
        primary.#config = config;
        await Promise.all(Array.from({ length: count }, (_, i) => primary.#spawn(i, config)));
      }
    } catch (error) {
      await primary.close(0);
      throw error;
    }
    primary.#running = true;
    primary.#startedNow();
    // Tests of the restart only: SIGUSR2 makes the last worker throw an uncaught exception.
    if (process.env.GW_DEBUG_WORKER_CRASH === '1')
      process.on('SIGUSR2', () =>
        primary
          .#listening()
          .at(-1)
          ?.thread.postMessage({ t: 'crash' } satisfies ToWorker),
      );
    return primary;
  }

  get ports(): Ports {
    return this.#members[0]?.ports ?? { proxy: 0, control: 0, https: 0 };
  }

  /** A reload round over every listening worker; resolves once all serve the new table. */
  reload(): Promise<void> {
    if (this.#queued) return this.#queued;
    if (this.#round) {
      this.#queued = this.#round
        .catch(() => undefined)
        .then(() => {
          this.#queued = undefined;
          return this.#startRound();
        });
      return this.#queued;
    }
    return this.#startRound();
  }

  async close(graceMs = 10_000): Promise<void> {
    this.#closing = true;
    await Promise.all(
      this.#members.map(
        (member) =>
          new Promise<void>((resolveExit) => {
            member.thread.once('exit', () => resolveExit());
            member.thread.postMessage({ t: 'close', graceMs } satisfies ToWorker);
            // A worker that has not finished starting cannot close itself.
            if (!member.ports) void member.thread.terminate();
          }),
      ),
    );
    await this.#store?.close();
  }

  /** Starts worker `index`; resolves once it listens, rejects if it dies first (while the gateway starts). */
  #spawn(index: number, config: GatewayConfig): Promise<Ports> {
    const shared = this.#sharedCounters()?.counters.buffer;
    const start: WorkerStart = { index, config, epoch: this.#epoch, remoteStore: this.#store !== undefined, ...(shared ? { sharedCounters: shared } : {}) };
    const thread = new Worker(new URL('./worker-main.ts', import.meta.url), { workerData: start });
    const member: Member = { index, thread, ports: undefined, waiting: new Map(), left: false };
    this.#members.push(member);
    const roundsBefore = this.#rounds;
    return new Promise<Ports>((resolveListening, reject) => {
      thread.on('message', (message: ToPrimary) => {
        if (message.t === 'listening') {
          member.ports = message.ports;
          resolveListening(message.ports);
          this.#joined(member, roundsBefore);
          return;
        }
        this.#handle(member, message);
      });
      thread.on('error', (error) => {
        if (!this.#running) return reject(error instanceof Error ? error : new Error(String(error)));
        this.log.error({ worker: index, err: String(error) }, 'a gateway worker failed');
      });
      thread.on('exit', (code) => {
        // Killed mid-check (out of memory), it may have held the shared counters' lock: the others must go on.
        if (this.#sharedCounters()?.counters.releaseHeldBy(index + 1))
          this.log.warn({ worker: index }, 'a gateway worker died holding the shared counters: released');
        this.#leave(member);
        if (!this.#running) reject(new Error(`gateway worker ${index} exited (${code}) before listening`));
        else if (!this.#closing) this.#died(index, code);
      });
    });
  }

  /** The counters every worker decides on itself (embedded store; none with sync_counters, which journals each count). */
  #sharedCounters(): SharedCounterDirectory | undefined {
    return this.#store instanceof EmbeddedStore ? this.#store.sharedCounters : undefined;
  }

  /** A worker now listens: after a restart it hears what it missed while starting. */
  #joined(member: Member, roundsBefore: number): void {
    if (!this.#running || this.#closing) return;
    if (member.index !== 0 && this.#downHosts.length > 0) member.thread.postMessage({ t: 'downHosts', hosts: this.#downHosts } satisfies ToWorker);
    member.thread.postMessage({ t: 'version', version: this.#version } satisfies ToWorker);
    // A round that ran while it loaded may have left it a table behind: one more round brings every worker level.
    if (this.#rounds !== roundsBefore || this.#round) void this.reload().catch((error: unknown) => this.log.error({ err: String(error) }, 'reload failed'));
  }

  /** Takes a worker that exited out of the group; whatever waited on its answer goes on without it. */
  #leave(member: Member): void {
    const at = this.#members.indexOf(member);
    if (at >= 0) this.#members.splice(at, 1);
    member.left = true;
    for (const waiting of [...member.waiting.values()]) waiting({ t: 'closed' });
  }

  #died(index: number, code: number): void {
    this.#restartCount.inc();
    const verdict = this.#restarts.died();
    if (verdict === 'give-up') {
      this.log.fatal({ worker: index, code }, 'gateway workers keep dying: stopping the gateway');
      process.exitCode = 1;
      void this.close(1_000).finally(() => process.exit(1));
      return;
    }
    this.log.error({ worker: index, code, restartInMs: verdict.restartInMs }, 'a gateway worker exited: restarting it');
    setTimeout(() => {
      if (this.#closing) return;
      this.#spawn(index, this.#config!).then(
        () => this.log.info({ worker: index }, 'gateway worker restarted'),
        () => undefined, // its exit was handled as another death
      );
    }, verdict.restartInMs).unref();
  }

  #handle(member: Member, message: ToPrimary): void {
    const reply = (answer: ToWorker): void => member.thread.postMessage(answer);
    switch (message.t) {
      case 'store':
        return this.#owner?.handle(member.index, message.id, message.method, message.args, reply);
      case 'reload':
        return void this.reload().then(
          () => reply({ t: 'reloaded', id: message.id }),
          (error: unknown) => reply({ t: 'reloaded', id: message.id, error: serializeError(error) }),
        );
      case 'broadcast':
        return void this.#broadcast(member, message.change).then(() => reply({ t: 'done', id: message.id }));
      case 'lockout':
        return reply({ t: 'lockout', id: message.id, waitMs: this.#lockouts[message.op]({ user: message.user, client: message.client }) });
      case 'lockoutSettle':
        return this.#lockouts.settle({ user: message.user, client: message.client }, message.outcome);
      case 'streamMessages':
        // To every worker, the one it came from too, as one batch: the primary's order is the one order all
        // subscribers see (a publish answered on one worker is never overtaken by a later publish answered on
        // another). The sender hears `done` only after every worker was sent it, so a publish answered on one worker
        // is sequenced before any publish a client makes after that answer, on whichever worker.
        for (const worker of this.#listening()) worker.thread.postMessage({ t: 'streamMessages', messages: message.messages } satisfies ToWorker);
        if (message.id !== undefined) reply({ t: 'done', id: message.id });
        return;
      case 'downHosts':
        if (member.index !== 0) return;
        this.#downHosts = message.hosts;
        for (const other of this.#listening()) if (other !== member) other.thread.postMessage({ t: 'downHosts', hosts: message.hosts } satisfies ToWorker);
        return;
      case 'bump':
        this.#version++;
        for (const other of this.#listening()) other.thread.postMessage({ t: 'version', version: this.#version } satisfies ToWorker);
        return;
      case 'metrics':
        return void this.#metrics().then(
          ({ text, contentType }) => reply({ t: 'metrics', id: message.id, text, contentType }),
          (error: unknown) =>
            reply({ t: 'metrics', id: message.id, text: `# metrics unavailable: ${serializeError(error).message}\n`, contentType: 'text/plain' }),
        );
      default:
        // prepared, applied, done, metricsOf: answers to the primary's own requests.
        member.waiting.get(waitKey(message))?.(message);
    }
  }

  #listening(): Member[] {
    return this.#members.filter((member) => member.ports !== undefined);
  }

  #startRound(): Promise<void> {
    this.#round = this.#runRound().finally(() => (this.#round = undefined));
    return this.#round;
  }

  async #runRound(): Promise<void> {
    await this.#started;
    const round = ++this.#rounds;
    const members = this.#listening();
    const prepared = await Promise.all(members.map((member) => this.#ask(member, { t: 'prepare', round }, `prepared:${round}`)));
    const failed = prepared.find((answer) => answer.t === 'prepared' && answer.error);
    if (failed) {
      for (const member of members) member.thread.postMessage({ t: 'abort', round } satisfies ToWorker);
      const error = (failed as { error: SerializedError }).error;
      throw Object.assign(new Error(error.message), { name: error.name });
    }
    await Promise.all(members.map((member) => this.#ask(member, { t: 'commit', round }, `applied:${round}`)));
  }

  async #broadcast(from: Member, change: Broadcast): Promise<void> {
    await Promise.all(
      this.#listening()
        .filter((member) => member !== from)
        .map((member) => {
          const id = this.#nextId++;
          return this.#ask(member, { t: 'apply', id, change }, `done:${id}`);
        }),
    );
  }

  async #metrics(): Promise<{ text: string; contentType: string }> {
    const all = await Promise.all(
      this.#listening().map((member) => {
        const id = this.#nextId++;
        return this.#ask(member, { t: 'collectMetrics', id }, `metricsOf:${id}`);
      }),
    );
    const answered = all.flatMap((answer) => (answer.t === 'metricsOf' ? [answer.metrics] : []));
    const registry = AggregatorRegistry.aggregate([...answered, await this.#registry.getMetricsAsJSON()] as Parameters<typeof AggregatorRegistry.aggregate>[0]);
    return { text: await registry.metrics(), contentType: registry.contentType };
  }

  /** Sends a request to one worker and resolves with its answer (matched by `key`). */
  #ask(member: Member, message: ToWorker, key: string): Promise<ToPrimary> {
    return new Promise((resolveAnswer) => {
      if (member.left) return resolveAnswer({ t: 'closed' });
      member.waiting.set(key, (answer) => {
        member.waiting.delete(key);
        resolveAnswer(answer);
      });
      member.thread.postMessage(message);
    });
  }
}

function waitKey(message: ToPrimary): string {
  switch (message.t) {
    case 'prepared':
    case 'applied':
      return `${message.t}:${message.round}`;
    case 'done':
    case 'metricsOf':
      return `${message.t}:${message.id}`;
    default:
      return '';
  }
}
