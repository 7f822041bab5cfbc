// Detailed analytics: the first bytes of one request's body and of its answer's body, kept for its analytics
// record (only for requests whose key, API or gateway asks for detailed recording: the step that decides is
// middleware/recording/detailed-recording.ts). Bounded: each side keeps at most `limit` bytes, the rest passes through
// uncounted. The request body is copied as it streams to the upstream (tapRequest), never buffered whole; the
// answer's body as it is written (the upstream's chunks in proxy/forward.ts, a mock's or an error's in
// response-phase.ts). Must never: change a byte that passes through, or hold more than `limit` per side.
import type { IncomingMessage } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';

export class BodyCapture {
  readonly limit: number;
  readonly #request = new Side();
  readonly #response = new Side();

  constructor(limit: number) {
    this.limit = limit;
  }

  request(chunk: Buffer): void {
    this.#request.add(chunk, this.limit);
  }

  response(chunk: Buffer | string): void {
    this.#response.add(typeof chunk === 'string' ? Buffer.from(chunk) : chunk, this.limit);
  }

  /** The client's body stream, copied into the capture as the upstream reads it. */
  tapRequest(req: IncomingMessage): Transform {
    const tap = new Transform({
      transform: (chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) => {
        this.request(chunk);
        done(null, chunk);
      },
    });
    req.on('error', (error) => tap.destroy(error));
    return req.pipe(tap);
  }

  /** Both sides as text (UTF-8; NUL, which the dashboard's database cannot keep, shown as U+FFFD). */
  texts(): { request: string; response: string } {
    return { request: this.#request.text(), response: this.#response.text() };
  }
}

class Side {
  readonly #chunks: Buffer[] = [];
  #bytes = 0;

  add(chunk: Buffer, limit: number): void {
    if (this.#bytes >= limit) return;
    const kept = chunk.length <= limit - this.#bytes ? chunk : chunk.subarray(0, limit - this.#bytes);
    this.#chunks.push(Buffer.from(kept));
    this.#bytes += kept.length;
  }

  text(): string {
    return Buffer.concat(this.#chunks, this.#bytes).toString('utf8').replaceAll('\u0000', '\uFFFD');
  }
}
