// A gRPC client of Tyk's coprocess.Dispatcher service over node:http2, one connection per gateway process reused
// by every call (HTTP/2 multiplexes them) and dialled again after it closes. Each unary call carries a deadline
// (grpc-timeout, and the stream is cancelled past it), its request is refused above grpc_send_max_size and its
// answer read up to grpc_recv_max_size; compressed messages are refused (gw sends no grpc-accept-encoding).
// A failure is a result, never a throw: the caller answers that request's client and logs the reason.
import { connect as netConnect } from 'node:net';
import http2, { type ClientHttp2Session } from 'node:http2';
import { decodeObject, encodeObject, type CoprocessObject } from './coprocess-messages.ts';

export interface DispatcherOptions {
  /** coprocess_grpc_server: tcp://host:port (or host:port), unix:///path. */
  address: string;
  /** grpc_authority: the :authority sent; empty: the address's host:port (or `localhost` on a socket). */
  authority: string;
  recvMaxBytes: number;
  sendMaxBytes: number;
  timeoutMs: number;
}

export type DispatchResult = { ok: true; object: CoprocessObject } | { ok: false; reason: string };

export class DispatcherClient {
  readonly #options: DispatcherOptions;
  readonly #target: { url: string; socketPath?: string };
  #session: ClientHttp2Session | undefined;

  constructor(options: DispatcherOptions) {
    this.#options = options;
    this.#target = dialTarget(options.address);
  }

  dispatch(object: CoprocessObject): Promise<DispatchResult> {
    return this.#call('/coprocess.Dispatcher/Dispatch', encodeObject(object)).then((answer) => {
      if (!answer.ok) return answer;
      try {
        return { ok: true, object: decodeObject(answer.message) };
      } catch (error) {
        return { ok: false, reason: `the plugin's answer is not a coprocess.Object: ${(error as Error).message}` };
      }
    });
  }

  close(): void {
    this.#session?.close();
    this.#session = undefined;
  }

  #connection(): ClientHttp2Session {
    if (this.#session && !this.#session.closed && !this.#session.destroyed) return this.#session;
    const { url, socketPath } = this.#target;
    const session = http2.connect(url, socketPath ? { createConnection: () => netConnect(socketPath) } : {});
    session.on('error', () => {}); // every pending stream gets its own error; the next call dials again
    session.on('close', () => {
      if (this.#session === session) this.#session = undefined;
    });
    session.on('goaway', () => {
      if (this.#session === session) this.#session = undefined;
    });
    session.unref();
    this.#session = session;
    return session;
  }

  #call(path: string, message: Buffer): Promise<{ ok: true; message: Buffer } | { ok: false; reason: string }> {
    const { sendMaxBytes, recvMaxBytes, timeoutMs, authority } = this.#options;
    if (message.length > sendMaxBytes)
      return Promise.resolve({ ok: false, reason: `the request message (${message.length} bytes) exceeds grpc_send_max_size (${sendMaxBytes})` });
    return new Promise((resolve) => {
      let settled = false;
      const finish = (result: { ok: true; message: Buffer } | { ok: false; reason: string }): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      let stream: http2.ClientHttp2Stream;
      try {
        stream = this.#connection().request({
          ':method': 'POST',
          ':path': path,
          ...(authority ? { ':authority': authority } : {}),
          'content-type': 'application/grpc',
          te: 'trailers',
          'grpc-timeout': `${Math.max(1, Math.ceil(timeoutMs))}m`,
        });
      } catch (error) {
        finish({ ok: false, reason: `the plugin server cannot be reached: ${(error as Error).message}` });
        return;
      }
      const timer = setTimeout(() => {
        stream.close(http2.constants.NGHTTP2_CANCEL);
        finish({ ok: false, reason: `no answer within ${timeoutMs} ms` });
      }, timeoutMs);
      const chunks: Buffer[] = [];
      let received = 0;
      let status: string | undefined;
      let statusMessage = '';
      const readStatus = (headers: http2.IncomingHttpHeaders): void => {
        if (headers['grpc-status'] !== undefined) {
          status = String(headers['grpc-status']);
          statusMessage = decodeURIComponent(String(headers['grpc-message'] ?? ''));
        }
      };
      stream.on('response', (headers) => {
        if (headers[':status'] !== 200) finish({ ok: false, reason: `the plugin server answered HTTP ${headers[':status']}` });
        readStatus(headers);
      });
      stream.on('trailers', readStatus);
      stream.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > recvMaxBytes + 5) {
          stream.close(http2.constants.NGHTTP2_CANCEL);
          finish({ ok: false, reason: `the answer exceeds grpc_recv_max_size (${recvMaxBytes})` });
          return;
        }
        chunks.push(chunk);
      });
      stream.on('error', (error: Error) => finish({ ok: false, reason: `the plugin server cannot be reached: ${error.message}` }));
      stream.on('close', () => {
        if (status === undefined) return finish({ ok: false, reason: 'the plugin server closed the call without a status' });
        if (status !== '0') return finish({ ok: false, reason: `gRPC status ${status}${statusMessage ? `: ${statusMessage}` : ''}` });
        const body = Buffer.concat(chunks);
        if (body.length < 5 || body.length !== 5 + body.readUInt32BE(1)) return finish({ ok: false, reason: 'the answer is not one gRPC message' });
        if (body[0] !== 0) return finish({ ok: false, reason: 'the answer is compressed' });
        finish({ ok: true, message: body.subarray(5) });
      });
      const frame = Buffer.alloc(5);
      frame.writeUInt32BE(message.length, 1);
      stream.end(Buffer.concat([frame, message]));
    });
  }
}

/** Tyk drops the tcp:// prefix before dialling; unix:// names a socket. */
export function dialTarget(address: string): { url: string; socketPath?: string } {
  if (address.startsWith('unix://')) return { url: 'http://localhost', socketPath: address.slice('unix://'.length) };
  const hostPort = address.startsWith('tcp://') ? address.slice('tcp://'.length) : address;
  return { url: `http://${hostPort}` };
}
