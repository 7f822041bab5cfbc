// A subscriber over Server-Sent Events (stream_format event_source: `data:` lines, a blank line per message) or
// raw bytes (stream_format raw_bytes: one message per line). The head is written by the response phase like any
// answer of the API; messages go to the response, whose unsent bytes (writableLength) are the subscriber's queue.
// Closing says why in an SSE comment (`: gw-close <reason>`), then ends; a client that does not read is cut after
// CLOSE_GRACE_MS so its unsent bytes are freed. The messages sent in one tick go out in one write (TickCork).
import { isUtf8 } from 'node:buffer';
import type { ServerResponse } from 'node:http';
import type { BodySink } from '../pipeline/response-phase.ts';
import { CLOSE_TEXT, TickCork, type CloseReason, type Subscriber } from './subscribers.ts';

const CLOSE_GRACE_MS = 1_000;
const HEARTBEAT_MS = 15_000;
const DATA_FIELD = Buffer.from('data: ');
const EVENT_END = Buffer.from('\n\n');
const LINE_END = Buffer.from('\n');
const CR = 0x0d;
const LF = 0x0a;

/** One message as an SSE event: each of its lines a `data:` field (the client joins them with \n), a blank line. */
export function eventFrame(message: Buffer): Buffer {
  // One line of valid UTF-8 (the usual message) is framed as it is, without decoding and re-encoding it.
  if (message.indexOf(LF) < 0 && message.indexOf(CR) < 0 && isUtf8(message)) return Buffer.concat([DATA_FIELD, message, EVENT_END]);
  const lines = message.toString('utf8').split(/\r\n|\r|\n/);
  return Buffer.from(`${lines.map((line) => `data: ${line}`).join('\n')}\n\n`);
}

export class SseSubscriber implements Subscriber {
  readonly #res: ServerResponse;
  readonly #sink: BodySink;
  readonly #eventSource: boolean;
  readonly #heartbeat: NodeJS.Timeout;
  readonly #cork: TickCork;

  constructor(res: ServerResponse, sink: BodySink, eventSource: boolean) {
    this.#res = res;
    // The connection itself, not the response: a corked ServerResponse keeps chunked writes aside and, on uncork,
    // hands them to an uncorked socket one write each; a corked socket takes them all in one writev.
    this.#cork = new TickCork(res.socket ?? res);
    this.#sink = sink;
    this.#eventSource = eventSource;
    this.#heartbeat = setInterval(() => {
      if (this.#eventSource && this.#res.writableLength === 0) this.#sink.write(Buffer.from(': heartbeat\n\n'));
    }, HEARTBEAT_MS);
    this.#heartbeat.unref();
    res.once('close', () => clearInterval(this.#heartbeat));
  }

  queuedBytes(): number {
    return this.#res.writableLength;
  }

  send(message: Buffer): void {
    this.#cork.hold();
    this.#sink.write(this.#eventSource ? eventFrame(message) : Buffer.concat([message, LINE_END]));
  }

  flush(): void {
    this.#cork.release();
  }

  close(reason: CloseReason): void {
    if (this.#res.writableEnded) return;
    this.#cork.release();
    if (this.#eventSource) this.#sink.write(Buffer.from(`: gw-close ${reason}: ${CLOSE_TEXT[reason]}\n\n`));
    this.#sink.end();
    const cut = setTimeout(() => this.#res.destroy(), CLOSE_GRACE_MS);
    cut.unref();
    this.#res.once('close', () => clearTimeout(cut));
  }

  onClosed(listener: () => void): void {
    this.#res.once('close', listener);
  }
}
