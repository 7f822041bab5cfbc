// WsSubscriber's writes over a real upgraded connection (ws on a node:http server, a ws client): the frames sent in
// one tick reach the socket in one write, in order (ws writes each frame on its own otherwise), and a flush writes
// the held frames at once.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { WsSubscriber } from './ws-subscriber.ts';

/** Counts the writes a socket hands to the kernel: one per _write, one per _writev (however many chunks). */
function countWrites(socket: Socket): { writes: number } {
  const counted = { writes: 0 };
  const internals = socket as unknown as Record<'_write' | '_writev', (...args: unknown[]) => void>;
  for (const method of ['_write', '_writev'] as const) {
    const original = internals[method].bind(socket);
    internals[method] = (...args: unknown[]) => {
      counted.writes++;
      original(...args);
    };
  }
  return counted;
}

let server: Server | undefined;
let client: WebSocket | undefined;
afterEach(() => {
  client?.terminate();
  server?.closeAllConnections();
  server?.close();
});

/** A subscriber on the server end of a real WebSocket, the writes of its socket counted, and the frames the client read. */
async function connected(): Promise<{ subscriber: WsSubscriber; counted: { writes: number }; frames: string[] }> {
  const sockets = new WebSocketServer({ noServer: true });
  const accepted = new Promise<{ subscriber: WsSubscriber; counted: { writes: number } }>((resolve) => {
    server = createServer();
    server.on('upgrade', (req, socket: Socket, head) => {
      sockets.handleUpgrade(req, socket, head, (ws) => resolve({ subscriber: new WsSubscriber(ws, socket), counted: countWrites(socket) }));
    });
  });
  server!.listen(0, '127.0.0.1');
  await once(server!, 'listening');
  client = new WebSocket(`ws://127.0.0.1:${(server!.address() as AddressInfo).port}/`);
  const frames: string[] = [];
  client.on('message', (data: Buffer) => frames.push(data.toString()));
  await once(client, 'open');
  return { ...(await accepted), frames };
}

async function until(frames: string[], count: number): Promise<void> {
  while (frames.length < count) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('WsSubscriber', () => {
  it("hands one tick's frames to the socket in one write, in order", async () => {
    const { subscriber, counted, frames } = await connected();
    for (const m of ['one', 'two', 'three']) subscriber.send(Buffer.from(m));
    await until(frames, 3);
    expect(frames).toEqual(['one', 'two', 'three']);
    expect(counted.writes).toBe(1);
  });

  it('writes the held frames at once when flushed', async () => {
    const { subscriber, counted, frames } = await connected();
    subscriber.send(Buffer.from('a'));
    subscriber.send(Buffer.from('b'));
    subscriber.flush();
    expect(counted.writes).toBe(1);
    await until(frames, 2);
    expect(frames).toEqual(['a', 'b']);
  });
});
