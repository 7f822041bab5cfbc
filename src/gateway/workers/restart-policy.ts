// When the primary restarts a gateway worker that died (primary.ts), as a process supervisor does: at once the
// first time, then after a delay that doubles with each further death in the window (up to a ceiling), and not at
// all once more than `maxRestarts` deaths fall within `windowMs`: the gateway stops then, since a worker that keeps
// dying will not serve. Deaths of every worker count together (one defect usually kills them all in turn).
export interface RestartLimits {
  /** Deaths restarted within the window; one more stops the gateway. */
  maxRestarts: number;
  windowMs: number;
  /** The delay before the second restart in the window; doubled for each next one. */
  firstBackoffMs: number;
  maxBackoffMs: number;
}

/** 5 restarts in a minute; 0.25 s, 0.5 s, 1 s, 2 s ... at most 5 s apart. */
export const WORKER_RESTART_LIMITS: RestartLimits = { maxRestarts: 5, windowMs: 60_000, firstBackoffMs: 250, maxBackoffMs: 5_000 };

/**
 * WORKER_RESTART_LIMITS, with the first delay from GW_WORKER_RESTART_BACKOFF_MS when set (a whole number of ms, for
 * tests that kill workers six times and exercise the rule, not the delays); anything else is ignored.
 */
export function workerRestartLimits(env: NodeJS.ProcessEnv = process.env): RestartLimits {
  const raw = env.GW_WORKER_RESTART_BACKOFF_MS;
  if (raw === undefined || !/^\d{1,6}$/.test(raw)) return WORKER_RESTART_LIMITS;
  return { ...WORKER_RESTART_LIMITS, firstBackoffMs: Number(raw) };
}

export class RestartPolicy {
  readonly #limits: RestartLimits;
  readonly #now: () => number;
  /** When each death in the window happened, oldest first. */
  #deaths: number[] = [];

  constructor(limits: RestartLimits = WORKER_RESTART_LIMITS, now: () => number = Date.now) {
    this.#limits = limits;
    this.#now = now;
  }

  /** Records a death: the delay before restarting, or `give-up` when the window holds too many. */
  died(): { restartInMs: number } | 'give-up' {
    const now = this.#now();
    this.#deaths = this.#deaths.filter((at) => now - at < this.#limits.windowMs);
    this.#deaths.push(now);
    const count = this.#deaths.length;
    if (count > this.#limits.maxRestarts) return 'give-up';
    if (count === 1) return { restartInMs: 0 };
    return { restartInMs: Math.min(this.#limits.firstBackoffMs * 2 ** (count - 2), this.#limits.maxBackoffMs) };
  }
}
