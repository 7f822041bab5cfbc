// The one small interface every broker connector implements (redis-streams.ts, nats.ts, amqp.ts), so a stream's
// runtime never knows which broker it talks to. A message is its payload bytes; headers and keys are not carried.
//
// Delivery contract: `publish` resolves only once the broker has the message (a Redis XADD reply, a NATS flush,
// an AMQP publisher confirm) and rejects when it could not get there within its bounded retry (publishes made in
// one turn of the event loop may share one round trip: TurnQueue, SharedTurn); `consume` hands
// messages to `deliver` one at a time in broker order and acknowledges one (where the broker has acks) only after
// `deliver` resolved. Connectors reconnect on their own, with a capped back-off, and never throw from callbacks.

export interface BrokerSink {
  publish(message: Buffer): Promise<void>;
  close(): Promise<void>;
}

export interface BrokerSource {
  /** Starts consuming; `deliver` is awaited before the next message (order) and before the broker ack. */
  consume(deliver: (message: Buffer) => Promise<void>): void;
  close(): Promise<void>;
}

/** What a connector reports: connection state changes, for logs. */
export interface ConnectorLog {
  warn(detail: Record<string, unknown>, message: string): void;
  info(detail: Record<string, unknown>, message: string): void;
}

/** Retry and reconnect bounds shared by the connectors. */
export const RECONNECT_MIN_MS = 100;
export const RECONNECT_MAX_MS = 5_000;
/** How long one publish may wait for a broker that is down before it fails (its message is then dropped). */
export const PUBLISH_TIMEOUT_MS = 5_000;

/** Waits the next back-off step: doubles from RECONNECT_MIN_MS up to RECONNECT_MAX_MS. */
export function nextBackoff(previousMs: number): number {
  return Math.min(RECONNECT_MAX_MS, Math.max(RECONNECT_MIN_MS, previousMs * 2));
}

/** Rejects after `ms` with a timeout error unless `work` settles first. */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** A publish that settles on its own (a Redis XADD command): rejected by PublishDeadline when it waited too long. */
export interface Settleable {
  readonly isSettled: boolean;
  reject(error: Error): void;
}

/**
 * Collects the items added during one turn of the event loop (every request body that completed in one poll
 * phase) and hands them, in the order added, to `send` once, from setImmediate: one broker round trip and one
 * socket write for many publishes instead of one each.
 */
export class TurnQueue<T> {
  readonly #send: (items: T[]) => void;
  #items: T[] = [];

  constructor(send: (items: T[]) => void) {
    this.#send = send;
  }

  add(item: T): void {
    if (this.#items.length === 0) setImmediate(this.#flush);
    this.#items.push(item);
  }

  readonly #flush = (): void => {
    const items = this.#items;
    this.#items = [];
    this.#send(items);
  };
}

/**
 * The items added during one turn of the event loop sharing one outcome (a NATS flush confirms every publish before
 * it): `send` gets them once, in the order added, from setImmediate, and every `add` of the turn answers the same
 * promise (no promise or waiter per item).
 */
export class SharedTurn<T> {
  readonly #send: (items: T[]) => Promise<void>;
  #items: T[] = [];
  #outcome: Promise<void> | undefined;

  constructor(send: (items: T[]) => Promise<void>) {
    this.#send = send;
  }

  add(item: T): Promise<void> {
    this.#items.push(item);
    return (this.#outcome ??= new Promise<void>((resolve) => setImmediate(resolve)).then(this.#flush));
  }

  readonly #flush = (): Promise<void> => {
    const items = this.#items;
    this.#items = [];
    this.#outcome = undefined;
    return this.#send(items);
  };
}
