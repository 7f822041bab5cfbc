// NatsSink's publish confirmations, against a scripted NATS server (a loopback server speaking the NATS client
// protocol whose PONGs the test releases): the publishes of one event-loop turn go out in order followed by one
// PING; none resolves before the PONG answering a PING sent after it; a later turn's publishes wait for their own.
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NatsSink } from './nats.ts';

const quiet = { warn: () => undefined, info: () => undefined };
const INFO = { server_id: 'scripted', server_name: 'scripted', version: '2.10.0', proto: 1, max_payload: 1048576, headers: true };

/** A NATS server that answers the connect handshake's PING at once and records every PUB and later PING, in order. */
class ScriptedNats {
  readonly server: Server;
  /** `PUB <payload>` and `PING`, in the order they arrived after the handshake. */
  readonly seen: string[] = [];
  #socket: Socket | undefined;
  #waiters: (() => void)[] = [];

  constructor() {
    this.server = createServer((socket) => {
      this.#socket = socket;
      socket.write(`INFO ${JSON.stringify(INFO)}\r\n`);
      let buffer = '';
      let connected = false;
      socket.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('latin1');
        for (;;) {
          const end = buffer.indexOf('\r\n');
          if (end < 0) break;
          const [verb, ...args] = buffer.slice(0, end).split(' ');
          if (verb === 'PUB') {
            const size = Number(args.at(-1));
            if (buffer.length < end + 2 + size + 2) break;
            this.seen.push(`PUB ${buffer.slice(end + 2, end + 2 + size)}`);
            buffer = buffer.slice(end + 2 + size + 2);
            continue;
          }
          buffer = buffer.slice(end + 2);
          if (verb === 'PING' && !connected) {
            connected = true;
            socket.write('PONG\r\n');
          } else if (verb === 'PING') this.seen.push('PING');
        }
        for (const wake of this.#waiters.splice(0)) wake();
      });
    });
  }

  async listen(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `nats://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves once `count` PUBs and PINGs arrived. */
  async received(count: number): Promise<void> {
    while (this.seen.length < count) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  pong(): void {
    this.#socket!.write('PONG\r\n');
  }
}

describe('NatsSink publish', () => {
  let nats: ScriptedNats;
  let sink: NatsSink | undefined;
  afterEach(async () => {
    await sink?.close();
    nats.server.close();
  });

  it('follows one turn of publishes with one PING and resolves them only on its PONG, a later turn on its own', async () => {
    nats = new ScriptedNats();
    sink = new NatsSink({ urls: [await nats.listen()], subject: 'events' }, quiet);
    const settled: string[] = [];
    const publish = (body: string): Promise<number> => sink!.publish(Buffer.from(body)).then(() => settled.push(body));
    const first = ['a', 'b', 'c'].map(publish);
    await nats.received(4);
    expect(nats.seen).toEqual(['PUB a', 'PUB b', 'PUB c', 'PING']);
    expect(settled).toEqual([]); // the server has them, but has not said so yet
    const second = publish('d');
    await nats.received(6);
    expect(nats.seen.slice(4)).toEqual(['PUB d', 'PING']);
    nats.pong(); // answers the first PING: a, b and c, not d
    await Promise.all(first);
    expect(settled).toEqual(['a', 'b', 'c']);
    nats.pong();
    await second;
    expect(settled).toEqual(['a', 'b', 'c', 'd']);
  });
});
