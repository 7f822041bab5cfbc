// RedisStreamsSink's publish confirmations, against a scripted Redis (a loopback server speaking RESP whose XADD
// replies the test releases): the XADDs of one event-loop turn reach Redis in order, in one pipeline; no publish
// resolves before its own XADD was answered; an error reply fails exactly the message whose XADD it answered.
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisStreamsSink } from './redis-streams.ts';

const quiet = { warn: () => undefined, info: () => undefined };

/** Commands (arrays of bulk strings) in `buffer` from `offset`; the offset after the last complete one. */
function parseCommands(buffer: Buffer, offset: number): { commands: string[][]; offset: number } {
  const commands: string[][] = [];
  for (;;) {
    const start = offset;
    const line = (from: number): [string, number] | undefined => {
      const end = buffer.indexOf('\r\n', from);
      return end < 0 ? undefined : [buffer.toString('latin1', from, end), end + 2];
    };
    const header = line(offset);
    if (!header) return { commands, offset: start };
    const count = Number(header[0].slice(1));
    let at = header[1];
    const args: string[] = [];
    for (let i = 0; i < count; i++) {
      const size = line(at);
      if (!size) return { commands, offset: start };
      const length = Number(size[0].slice(1));
      if (buffer.length < size[1] + length + 2) return { commands, offset: start };
      args.push(buffer.toString('latin1', size[1], size[1] + length));
      at = size[1] + length + 2;
    }
    commands.push(args);
    offset = at;
  }
}

/** A Redis that answers everything but XADD at once; XADDs wait in `xadds` until the test replies. */
class ScriptedRedis {
  readonly server: Server;
  readonly xadds: { args: string[]; socket: Socket }[] = [];
  /** How many reads of the connection carried XADDs (one per pipeline write, when the kernel does not split it). */
  xaddReads = 0;
  #waiters: (() => void)[] = [];

  constructor() {
    this.server = createServer((socket) => {
      let buffer = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        buffer = Buffer.concat([buffer, chunk]);
        const parsed = parseCommands(buffer, 0);
        buffer = buffer.subarray(parsed.offset);
        if (parsed.commands.some((args) => args[0]!.toUpperCase() === 'XADD')) this.xaddReads++;
        for (const args of parsed.commands) {
          const name = args[0]!.toUpperCase();
          if (name === 'XADD') this.xadds.push({ args, socket });
          else if (name === 'INFO') socket.write('$11\r\nloading:0\r\n\r\n');
          else socket.write('+OK\r\n');
        }
        for (const wake of this.#waiters.splice(0)) wake();
      });
    });
  }

  async listen(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `redis://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves once `count` XADDs arrived. */
  async received(count: number): Promise<void> {
    while (this.xadds.length < count) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  /** Answers the XADDs in arrival order: an entry id, or the error given for that position. */
  reply(errors: Record<number, string> = {}): void {
    this.xadds.forEach(({ socket }, i) => socket.write(errors[i] ? `-${errors[i]}\r\n` : `$3\r\n${i}-0\r\n`));
  }
}

describe('RedisStreamsSink publish', () => {
  let redis: ScriptedRedis;
  let sink: RedisStreamsSink | undefined;
  afterEach(async () => {
    await sink?.close();
    redis.server.close();
  });

  it('sends one turn of XADDs in order in one pipeline and resolves none before its reply', async () => {
    redis = new ScriptedRedis();
    sink = new RedisStreamsSink({ url: await redis.listen(), stream: 'events', max_length: 0 }, quiet);
    const settled: string[] = [];
    const publishes = ['a', 'b', 'c'].map((body) => sink!.publish(Buffer.from(body)).then(() => settled.push(body)));
    await redis.received(3);
    expect(redis.xadds.map(({ args }) => args)).toEqual(['a', 'b', 'c'].map((body) => ['xadd', 'events', '*', 'body', body]));
    expect(redis.xaddReads).toBe(1);
    expect(settled).toEqual([]); // every XADD is in Redis's hands, none answered yet
    redis.reply();
    await Promise.all(publishes);
    expect(settled).toEqual(['a', 'b', 'c']);
  });

  it('fails exactly the message whose XADD Redis refused', async () => {
    redis = new ScriptedRedis();
    sink = new RedisStreamsSink({ url: await redis.listen(), stream: 'events', max_length: 0 }, quiet);
    const outcomes = Promise.allSettled(['a', 'b', 'c'].map((body) => sink!.publish(Buffer.from(body))));
    await redis.received(3);
    redis.reply({ 1: 'OOM command not allowed when used memory > maxmemory' });
    const [a, b, c] = await outcomes;
    expect(a).toMatchObject({ status: 'fulfilled' });
    expect(b?.status).toBe('rejected');
    expect(((b as PromiseRejectedResult).reason as Error).message).toContain('OOM');
    expect(c).toMatchObject({ status: 'fulfilled' });
  });
});
