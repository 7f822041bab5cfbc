// The subscribers of one http_server output: every message goes to every subscriber connected when it arrives
// (fan-out; Tyk's Bento output hands each message to one waiting client instead — see README "Streams").
// Each subscriber is bounded: what its connection has not taken yet is counted (queuedBytes) and, past the
// output's max_buffer_bytes, the subscriber is disconnected with a stated reason, so one slow client never grows
// the gateway's memory. The set lives as long as its stream runtime, so a reload that keeps the stream keeps its
// subscribers connected.
// Writes are coalesced per tick (TickCork): the messages broadcast in one tick (a broker read's batch, a batch
// relayed from the primary) reach each subscriber's socket in one write, not one write (one syscall) each. Bytes
// held that way count as queued; a subscriber whose queue would pass the limit is flushed first and judged on what
// its connection did not take, so a fast client is never cut for the size of one batch.

/** One connected client (sse-subscriber.ts, ws-subscriber.ts). */
export interface Subscriber {
  /** Bytes written to the connection and not yet taken by the client's socket. */
  queuedBytes(): number;
  /** Queues the message on the connection; the sends of one tick reach it in one write (TickCork). */
  send(message: Buffer): void;
  /** Writes what this tick's sends held back now: queuedBytes then counts what the connection did not take. */
  flush(): void;
  /** Closes the connection saying why (SSE comment, WebSocket close reason). */
  close(reason: CloseReason): void;
  /** Called once when the connection ends, whoever ended it. */
  onClosed(listener: () => void): void;
}

export type CloseReason = 'slow_subscriber' | 'stream_removed' | 'shutting_down';

export const CLOSE_TEXT: Record<CloseReason, string> = {
  slow_subscriber: 'subscriber too slow: buffer limit exceeded',
  stream_removed: 'stream removed or reconfigured',
  shutting_down: 'gateway shutting down',
};

export class SubscriberSet {
  readonly #members = new Set<Subscriber>();
  readonly #maxBufferBytes: number;
  readonly #maxSubscribers: number;
  readonly #onSlow: () => void;

  constructor(maxBufferBytes: number, maxSubscribers: number, onSlow: () => void) {
    this.#maxBufferBytes = maxBufferBytes;
    this.#maxSubscribers = maxSubscribers;
    this.#onSlow = onSlow;
  }

  get size(): number {
    return this.#members.size;
  }

  /** The output already has max_subscribers: a new one is refused before its head is written. */
  get full(): boolean {
    return this.#members.size >= this.#maxSubscribers;
  }

  add(subscriber: Subscriber): void {
    this.#members.add(subscriber);
    subscriber.onClosed(() => this.#members.delete(subscriber));
  }

  /** Sends to every subscriber; one whose queue would pass the limit is disconnected instead. */
  broadcast(message: Buffer): void {
    for (const subscriber of this.#members) {
      if (subscriber.queuedBytes() + message.length > this.#maxBufferBytes && this.#stillOver(subscriber, message.length)) {
        this.#members.delete(subscriber);
        this.#onSlow();
        subscriber.close('slow_subscriber');
      } else subscriber.send(message);
    }
  }

  /** Over the limit with this tick's writes held: flushed, is it still (its connection did not take them)? */
  #stillOver(subscriber: Subscriber, incoming: number): boolean {
    subscriber.flush();
    return subscriber.queuedBytes() + incoming > this.#maxBufferBytes;
  }

  closeAll(reason: CloseReason): void {
    for (const subscriber of this.#members) subscriber.close(reason);
    this.#members.clear();
  }
}

/** What a subscriber's writes go through: a ServerResponse or a socket (both cork until as many uncorks). */
export interface Corkable {
  cork(): void;
  uncork(): void;
}

/**
 * Holds a connection's writes until the current tick's work is done (cork now, uncork from process.nextTick, which
 * runs once the microtasks queued meanwhile, such as a broker input's loop over one read, have run): what is sent
 * in between goes out in one write (writev). `release` writes it at once.
 */
export class TickCork {
  readonly #target: Corkable;
  #held = false;

  constructor(target: Corkable) {
    this.#target = target;
  }

  hold(): void {
    if (this.#held) return;
    this.#held = true;
    this.#target.cork();
    process.nextTick(() => this.release());
  }

  release(): void {
    if (!this.#held) return;
    this.#held = false;
    this.#target.uncork();
  }
}
