// A subscriber over WebSocket (output ws_path): each message is one text frame. The socket's unsent bytes
// (bufferedAmount) are the subscriber's queue. Closing sends a close frame with a code and the reason
// (1008 for a slow subscriber, 1001 when the stream goes away), then cuts a client that does not answer it
// after CLOSE_GRACE_MS. Frames the client sends are ignored (subscribe only).
import type { WebSocket } from 'ws';
import { CLOSE_TEXT, type CloseReason, type Subscriber } from './subscribers.ts';

const CLOSE_GRACE_MS = 1_000;
const CLOSE_CODE: Record<CloseReason, number> = { slow_subscriber: 1008, stream_removed: 1001, shutting_down: 1001 };

export class WsSubscriber implements Subscriber {
  readonly #socket: WebSocket;

  constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.on('error', () => socket.terminate());
  }

  queuedBytes(): number {
    return this.#socket.bufferedAmount;
  }

  send(message: Buffer): void {
    this.#socket.send(message, { binary: false });
  }

  close(reason: CloseReason): void {
    this.#socket.close(CLOSE_CODE[reason], CLOSE_TEXT[reason]);
    const cut = setTimeout(() => this.#socket.terminate(), CLOSE_GRACE_MS);
    cut.unref();
    this.#socket.once('close', () => clearTimeout(cut));
  }

  onClosed(listener: () => void): void {
    this.#socket.once('close', listener);
  }
}
