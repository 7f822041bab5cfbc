// The coprocess gRPC client (dispatcher-client.ts) against a small HTTP/2 server in the test standing in for a
// plugin server: a call answered with the Object, one connection reused by successive calls, and every failure a
// result naming its reason: a gRPC status, an answer past grpc_recv_max_size, a request past grpc_send_max_size
// (never sent), no answer within the deadline, and a server that is not there.
import http2, { type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeObject, encodeObject, HookType } from './coprocess-messages.ts';
import { DispatcherClient, type DispatcherOptions } from './dispatcher-client.ts';

const frame = (message: Buffer): Buffer => {
  const header = Buffer.alloc(5);
  header.writeUInt32BE(message.length, 1);
  return Buffer.concat([header, message]);
};

describe('DispatcherClient', () => {
  let server: Http2Server;
  let address: string;
  const sessions = new Set<unknown>();
  const paths: string[] = [];

  beforeAll(async () => {
    server = http2.createServer();
    server.on('session', (session) => sessions.add(session));
    server.on('stream', (stream, headers) => {
      paths.push(String(headers[':path']));
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const object = decodeObject(Buffer.concat(chunks).subarray(5));
        if (object.hook_name === 'Slow') return; // never answers
        if (object.hook_name === 'Fails') {
          stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '13', 'grpc-message': 'plugin%20broke' }, { endStream: true });
          return;
        }
        const answer = object.hook_name === 'Large' ? { ...object, hook_name: 'x'.repeat(2048) } : { ...object, request: { set_headers: { A: 'b' } } };
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
        stream.end(frame(encodeObject(answer)));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    address = `tcp://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const client = (options: Partial<DispatcherOptions> = {}): DispatcherClient =>
    new DispatcherClient({ address, authority: '', recvMaxBytes: 1024, sendMaxBytes: 1024, timeoutMs: 2000, ...options });

  it('calls coprocess.Dispatcher/Dispatch and reads the Object back, on one connection', async () => {
    const dispatcher = client();
    const before = sessions.size;
    const first = await dispatcher.dispatch({ hook_type: HookType.Pre, hook_name: 'Echo' });
    const second = await dispatcher.dispatch({ hook_type: HookType.Pre, hook_name: 'Echo' });
    dispatcher.close();
    expect(first).toEqual({ ok: true, object: { hook_type: HookType.Pre, hook_name: 'Echo', request: { set_headers: { A: 'b' } } } });
    expect(second.ok).toBe(true);
    expect(paths.at(-1)).toBe('/coprocess.Dispatcher/Dispatch');
    expect(sessions.size - before).toBe(1);
  });

  it('reports a gRPC status other than OK with its message', async () => {
    const dispatcher = client();
    expect(await dispatcher.dispatch({ hook_name: 'Fails' })).toEqual({ ok: false, reason: 'gRPC status 13: plugin broke' });
    dispatcher.close();
  });

  it('refuses an answer larger than grpc_recv_max_size', async () => {
    const dispatcher = client();
    expect(await dispatcher.dispatch({ hook_name: 'Large' })).toEqual({ ok: false, reason: 'the answer exceeds grpc_recv_max_size (1024)' });
    dispatcher.close();
  });

  it('does not send a request larger than grpc_send_max_size', async () => {
    const dispatcher = client();
    const calls = paths.length;
    const result = await dispatcher.dispatch({ hook_name: 'y'.repeat(2000) });
    expect(result.ok).toBe(false);
    expect(paths.length).toBe(calls);
    dispatcher.close();
  });

  it('gives up past the deadline', async () => {
    const dispatcher = client({ timeoutMs: 50 });
    expect(await dispatcher.dispatch({ hook_name: 'Slow' })).toEqual({ ok: false, reason: 'no answer within 50 ms' });
    dispatcher.close();
  });

  it('reports a plugin server that is not there', async () => {
    const closed = http2.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const dispatcher = client({ address: `tcp://127.0.0.1:${port}` });
    const result = await dispatcher.dispatch({ hook_name: 'Echo' });
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.reason).toMatch(/^the plugin server cannot be reached: .*ECONNREFUSED/);
    dispatcher.close();
  });
});
