// SseSubscriber's writes: the messages sent in one tick reach the connection in one write (corked until the tick's
// work is done), in order, and a flush writes them at once; an event's framing (eventFrame) is the same whether a
// message takes the one-line path or is split into lines.
import { once } from 'node:events';
import { createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { BodySink } from '../pipeline/response-phase.ts';
import { eventFrame, SseSubscriber } from './sse-subscriber.ts';

/** A connection recording each write it is handed: a single chunk, or the chunks of one writev. */
class RecordingConnection extends Writable {
  readonly writes: string[][] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.writes.push([chunk.toString()]);
    done();
  }
  override _writev(chunks: { chunk: Buffer }[], done: () => void): void {
    this.writes.push(chunks.map(({ chunk }) => chunk.toString()));
    done();
  }
}

function subscriberOn(connection: RecordingConnection, eventSource: boolean): SseSubscriber {
  const sink: BodySink = { write: (chunk) => connection.write(chunk), end: () => connection.end() };
  return new SseSubscriber(connection as unknown as ServerResponse, sink, eventSource);
}

const nextTick = (): Promise<void> => new Promise((resolve) => process.nextTick(resolve));

describe('SseSubscriber', () => {
  it("writes one tick's messages in one write, in order", async () => {
    const connection = new RecordingConnection();
    const subscriber = subscriberOn(connection, true);
    for (const m of ['one', 'two', 'three']) subscriber.send(Buffer.from(m));
    expect(connection.writes).toEqual([]);
    expect(subscriber.queuedBytes()).toBeGreaterThan(0); // held bytes count against the subscriber's limit
    await nextTick();
    expect(connection.writes).toEqual([['data: one\n\n', 'data: two\n\n', 'data: three\n\n']]);
    subscriber.send(Buffer.from('four'));
    await nextTick();
    expect(connection.writes.at(-1)).toEqual(['data: four\n\n']);
  });

  it('writes at once when flushed, and raw_bytes as one line per message', () => {
    const connection = new RecordingConnection();
    const subscriber = subscriberOn(connection, false);
    subscriber.send(Buffer.from('a'));
    subscriber.send(Buffer.from('b'));
    subscriber.flush();
    expect(connection.writes).toEqual([['a\n', 'b\n']]);
    expect(subscriber.queuedBytes()).toBe(0);
  });
});

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

describe('SseSubscriber over a real HTTP response', () => {
  it("hands one tick's messages (chunked) to the socket in one write", async () => {
    let counted: { writes: number } | undefined;
    let subscriber: SseSubscriber | undefined;
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      counted = countWrites(res.socket!);
      subscriber = new SseSubscriber(res, { write: (chunk) => res.write(chunk), end: () => res.end() }, true);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const received: string[] = [];
      const response = new Promise<void>((resolve) => {
        request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, (res) => {
          res.on('data', (chunk: Buffer) => {
            received.push(chunk.toString());
            if (received.join('').includes('data: three\n\n')) resolve();
          });
        }).end();
      });
      while (!subscriber) await new Promise((resolve) => setImmediate(resolve));
      for (const m of ['one', 'two', 'three']) subscriber.send(Buffer.from(m));
      await response;
      expect(received.join('')).toBe('data: one\n\ndata: two\n\ndata: three\n\n');
      expect(counted!.writes).toBe(1);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('eventFrame', () => {
  it('frames a one-line message as a data field', () => {
    expect(eventFrame(Buffer.from('{"id":1,"text":"grüße"}')).toString()).toBe('data: {"id":1,"text":"grüße"}\n\n');
    expect(eventFrame(Buffer.alloc(0)).toString()).toBe('data: \n\n');
  });

  it('gives each line of a message its own data field, whatever ends the line', () => {
    expect(eventFrame(Buffer.from('a\nb\r\nc\rd')).toString()).toBe('data: a\ndata: b\ndata: c\ndata: d\n\n');
  });

  it('sends bytes that are not UTF-8 as the replacement character, as a client decoding them would', () => {
    expect(eventFrame(Buffer.from([0x61, 0xff, 0x62])).toString()).toBe('data: a\uFFFDb\n\n');
  });
});
