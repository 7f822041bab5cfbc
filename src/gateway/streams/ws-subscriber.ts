// A subscriber over WebSocket (output ws_path): each message is one text frame. The socket's unsent bytes
// (bufferedAmount) are the subscriber's queue. Closing sends a close frame with a code and the reason
// (1008 for a slow subscriber, 1001 when the stream goes away), then cuts a client that does not answer it
// after CLOSE_GRACE_MS. Frames the client sends are ignored (subscribe only). The frames sent in one tick go out in
// one write: the upgraded connection (the socket ws writes to) is corked until the tick's work is done (TickCork).
import type { WebSocket } from 'ws';
import { CLOSE_TEXT, TickCork, type Corkable, type CloseReason, type Subscriber } from './subscribers.ts';

const CLOSE_GRACE_MS = 1_000;
const CLOSE_CODE: Record<CloseReason, number> = { slow_subscriber: 1008, stream_removed: 1001, shutting_down: 1001 };

export class WsSubscriber implements Subscriber {
  readonly #socket: WebSocket;
  readonly #cork: TickCork;

  /** `connection`: the upgraded connection `socket` writes its frames to. */
  constructor(socket: WebSocket, connection: Corkable) {
    this.#socket = socket;
    this.#cork = new TickCork(connection);
    socket.on('error', () => socket.terminate());
  }

  queuedBytes(): number {
    return this.#socket.bufferedAmount;
  }

  send(message: Buffer): void {
    this.#cork.hold();
    this.#socket.send(message, { binary: false });
  }

  flush(): void {
    this.#cork.release();
  }

  close(reason: CloseReason): void {
    this.#cork.release();
    this.#socket.close(CLOSE_CODE[reason], CLOSE_TEXT[reason]);
    const cut = setTimeout(() => this.#socket.terminate(), CLOSE_GRACE_MS);
    cut.unref();
    this.#socket.once('close', () => clearTimeout(cut));
  }

  onClosed(listener: () => void): void {
    this.#socket.once('close', listener);
  }
}
