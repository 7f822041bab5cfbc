// One endpoint's circuit breaker, per gateway process (each gateway judges its own traffic, as Tyk\'s do):
// closed, it remembers the outcome of the last `samples` upstream answers and trips when, with all of them seen,
// the failed share reaches the threshold. Open, it refuses requests until return_to_service_after has passed; then
// either one trial request decides (success closes, failure opens it for another period) or, with
// disable_half_open_state, it closes outright. Decided lazily on each request from the injected clock: no timer.
//
// Must never: count an answer twice, or let an answer to a request admitted before the breaker tripped close it
// (only the trial's answer can).
import type { CircuitBreakerRule } from '../../definition/version-spec.ts';

export type BreakerTransition = 'tripped' | 'reset';

/** What a request was admitted as: an ordinary request of a closed breaker, or the trial of a half-open one. */
export type Admission = 'closed' | 'trial';

export class CircuitBreakerState {
  readonly rule: CircuitBreakerRule;
  /** Ring of the latest outcomes (true: failed), `count` of them valid. */
  readonly #outcomes: boolean[];
  #next = 0;
  #count = 0;
  #failures = 0;
  /** Unix ms the breaker opened (or its last trial started); undefined while closed. */
  #openedAt: number | undefined;

  constructor(rule: CircuitBreakerRule) {
    this.rule = rule;
    this.#outcomes = new Array<boolean>(rule.samples).fill(false);
  }

  get open(): boolean {
    return this.#openedAt !== undefined;
  }

  /**
   * Whether a request may go upstream now: undefined refuses it (open). A `reset` transition is reported through
   * `onTransition` when the breaker closes outright at the end of its period.
   */
  admit(now: number, onTransition: (transition: BreakerTransition) => void): Admission | undefined {
    if (this.#openedAt === undefined) return 'closed';
    if (now - this.#openedAt < this.rule.returnToServiceMs) return undefined;
    if (!this.rule.halfOpen) {
      this.#close();
      onTransition('reset');
      return 'closed';
    }
    this.#openedAt = now; // the next trial waits another period unless this one's answer closes the breaker first
    return 'trial';
  }

  /** The upstream's answer to an admitted request: `failed` for a 5xx or no answer at all. */
  record(admission: Admission, failed: boolean, now: number, onTransition: (transition: BreakerTransition) => void): void {
    if (this.#openedAt !== undefined) {
      if (admission === 'trial' && !failed) {
        this.#close();
        onTransition('reset');
      }
      return;
    }
    if (admission === 'trial') return; // closed meanwhile (by another trial): nothing to decide
    const size = this.#outcomes.length;
    if (this.#count === size && this.#outcomes[this.#next]) this.#failures--;
    this.#outcomes[this.#next] = failed;
    if (failed) this.#failures++;
    this.#next = (this.#next + 1) % size;
    if (this.#count < size) this.#count++;
    if (failed && this.#count === size && this.#failures / size >= this.rule.threshold) {
      this.#openedAt = now;
      onTransition('tripped');
    }
  }

  #close(): void {
    this.#openedAt = undefined;
    this.#outcomes.fill(false);
    this.#next = 0;
    this.#count = 0;
    this.#failures = 0;
  }
}
