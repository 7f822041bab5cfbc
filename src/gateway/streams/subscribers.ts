// The subscribers of one http_server output: every message goes to every subscriber connected when it arrives
// (fan-out; Tyk's Bento output hands each message to one waiting client instead — see README "Streams").
// Each subscriber is bounded: what its connection has not taken yet is counted (queuedBytes) and, past the
// output's max_buffer_bytes, the subscriber is disconnected with a stated reason, so one slow client never grows
// the gateway's memory. The set lives as long as its stream runtime, so a reload that keeps the stream keeps its
// subscribers connected.

/** One connected client (sse-subscriber.ts, ws-subscriber.ts). */
export interface Subscriber {
  /** Bytes written to the connection and not yet taken by the client's socket. */
  queuedBytes(): number;
  send(message: Buffer): void;
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
      if (subscriber.queuedBytes() + message.length > this.#maxBufferBytes) {
        this.#members.delete(subscriber);
        this.#onSlow();
        subscriber.close('slow_subscriber');
      } else subscriber.send(message);
    }
  }

  closeAll(reason: CloseReason): void {
    for (const subscriber of this.#members) subscriber.close(reason);
    this.#members.clear();
  }
}
