// A worker's stream messages for subscribers, on their way to the primary (worker-link.ts): the messages relayed in
// one turn of the event loop (a broker read's batch, the publishes whose bodies completed in one poll phase) go in
// one postMessage, in the order they were relayed, and the primary sends the batch on to every worker as one
// message too (primary.ts), where their subscribers get the batch in one write each (streams/subscribers.ts).
// A batch holding a client's publish (`sequenced`) asks the primary for an answer: each such publish resolves only
// once the primary has sent its batch on, so a later publish on another worker cannot overtake it. A broker's
// messages need no answer (they come from one worker, in order) and resolve at once.
import type { StreamRelayed } from './protocol.ts';

export interface RelayPort {
  /** Sends a batch without asking for an answer. */
  post(messages: StreamRelayed[]): void;
  /** Sends a batch and resolves once the primary has sent it on to every worker. */
  request(messages: StreamRelayed[]): Promise<void>;
}

export class StreamRelayBatch {
  readonly #port: RelayPort;
  #messages: StreamRelayed[] = [];
  /** The sequenced publishes in the batch being collected, resolved when the primary answers it. */
  #sequenced: (() => void)[] = [];

  constructor(port: RelayPort) {
    this.#port = port;
  }

  add(key: string, hash: string, message: Buffer, sequenced: boolean): Promise<void> {
    if (this.#messages.length === 0) setImmediate(() => this.#flush());
    // A copy of its own bytes: a Buffer may view a larger pooled ArrayBuffer, which cloning would carry whole.
    this.#messages.push({ key, hash, message: new Uint8Array(message) });
    if (!sequenced) return Promise.resolve();
    return new Promise((resolve) => this.#sequenced.push(resolve));
  }

  #flush(): void {
    const messages = this.#messages;
    const sequenced = this.#sequenced;
    this.#messages = [];
    this.#sequenced = [];
    if (sequenced.length === 0) return this.#port.post(messages);
    void this.#port.request(messages).then(() => {
      for (const resolve of sequenced) resolve();
    });
  }
}
