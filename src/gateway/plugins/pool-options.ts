// The plugin pool's options (plugin-pool.ts) and their defaults: its workers, queue and limits, where calls go, and
// how it shares its workers and queue between APIs.
export interface PluginPoolOptions {
  workers: number;
  queue: number;
  /** Time limit of one call, milliseconds: past it the worker running it is ended. */
  timeoutMs: number;
  /** Heap limit of one worker (V8 old generation), megabytes. */
  memoryMb: number;
  /**
   * Longest answer of one call, or argument of one host operation (HTTP, batch, keys), in characters: the gateway
   * thread copies and parses each, so a plugin must not hand it hundreds of megabytes (every API would wait). A
   * longer answer fails the call; a longer argument is refused (the operation answers nothing). Default 16 Mi.
   */
  maxMessageChars?: number;
  /**
   * Whether calls spread over idle workers (to run in parallel) rather than go to the busiest worker free to take
   * them. Default: when the process has more than one core; on one, a second worker would run them no sooner, and
   * only add wake-ups.
   */
  spread?: boolean;
  /**
   * Share of `queue` the calls of one API may hold waiting (default 0.5, at least one call): beyond it that API's
   * calls fail at once, as every call does when the pool's queue is full, and other APIs' calls still find room.
   */
  apiQueueShare?: number;
  /**
   * A call running this long (milliseconds, default 100) holds its worker: the calls handed behind it go to other
   * workers, and while no other worker is free, the calls of other APIs get an extra worker (0: never).
   */
  stuckMs?: number;
  /** Extra workers at most, one per worker held by a long call (default: `workers`); each retired once idle. */
  extraWorkers?: number;
  /** Workers under SCHED_BATCH (plugin-worker.ts); default: when calls do not spread (one core). */
  batchScheduling?: boolean;
}

/** PluginPoolOptions.maxMessageChars unless set (the gateway sets 4 x jsvm_max_body_bytes + 64 KiB). */
export const DEFAULT_MAX_MESSAGE_CHARS = 16 * 1024 * 1024;

/** Calls handed to one worker at most (the one it runs and those queued behind it). */
export const PIPELINE_DEPTH = 16;

/** How long a call runs before it holds its worker (PluginPoolOptions.stuckMs). */
export const DEFAULT_STUCK_MS = 100;
