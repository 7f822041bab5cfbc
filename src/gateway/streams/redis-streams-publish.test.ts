// RedisStreamsSink's publish confirmations, against a scripted Redis (a loopback server speaking RESP whose XADD
// replies the test releases): the XADDs of one event-loop turn reach Redis in order (a pipeline before the
// connection is ready, corked XADDs once it is); no publish resolves before its own XADD was answered; an error
// reply fails exactly the message whose XADD it answered, an XADD unanswered for the publish timeout its message.
// (That a turn is one socket write is bench/streams' to
// show: the server's reads coalesce separate writes made in one turn too.)
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

  /** Answers the XADDs not answered yet, in arrival order: an entry id, or the error given for that position. */
  reply(errors: Record<number, string> = {}): void {
    const answering = this.xadds.slice(this.#answered);
    answering.forEach(({ socket }, i) => socket.write(errors[i] ? `-${errors[i]}\r\n` : `$3\r\n${i}-0\r\n`));
    this.#answered += answering.length;
  }

  #answered = 0;
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

  describe('once connected', () => {
    /** A sink whose connection is ready: one publish answered first (ioredis is ready before its first XADD). */
    async function connectedSink(maxLength = 0): Promise<RedisStreamsSink> {
      redis = new ScriptedRedis();
      const connected = new RedisStreamsSink({ url: await redis.listen(), stream: 'events', max_length: maxLength }, quiet);
      const first = connected.publish(Buffer.from('first'));
      await redis.received(1);
      redis.reply();
      await first;
      return connected;
    }

    it('sends one turn of XADDs in order and resolves none before its reply', async () => {
      sink = await connectedSink();
      const settled: string[] = [];
      const publishes = ['a', 'b', 'c'].map((body) => sink!.publish(Buffer.from(body)).then(() => settled.push(body)));
      await redis.received(4);
      expect(redis.xadds.slice(1).map(({ args }) => args)).toEqual(['a', 'b', 'c'].map((body) => ['xadd', 'events', '*', 'body', body]));
      expect(settled).toEqual([]);
      redis.reply();
      await Promise.all(publishes);
      expect(settled).toEqual(['a', 'b', 'c']);
    });

    it('fails exactly the message whose XADD Redis refused, mid-turn', async () => {
      sink = await connectedSink();
      const outcomes = Promise.allSettled(['a', 'b', 'c'].map((body) => sink!.publish(Buffer.from(body))));
      await redis.received(4);
      redis.reply({ 1: 'OOM command not allowed when used memory > maxmemory' });
      const [a, b, c] = await outcomes;
      expect(a).toMatchObject({ status: 'fulfilled' });
      expect(((b as PromiseRejectedResult).reason as Error).message).toContain('OOM');
      expect(c).toMatchObject({ status: 'fulfilled' });
    });

    it('fails a publish whose XADD is not answered within the publish timeout, and none answered in time', async () => {
      // Only the clock is faked (from before the connection: the output's one deadline timer is armed at its first
      // batch); sockets and setImmediate stay real.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      try {
        sink = await connectedSink();
        const answered = sink.publish(Buffer.from('a'));
        await redis.received(2);
        redis.reply();
        await answered;
        const outcomes = Promise.allSettled([answered, sink.publish(Buffer.from('b'))]);
        await redis.received(3);
        vi.advanceTimersByTime(4_999);
        expect(redis.xadds).toHaveLength(3);
        vi.advanceTimersByTime(1);
        const [a, b] = await outcomes;
        expect(a.status).toBe('fulfilled');
        expect(((b as PromiseRejectedResult).reason as Error).message).toBe('redis XADD timed out after 5000 ms');
      } finally {
        vi.useRealTimers();
      }
    });

    it('keeps MAXLEN ~ on every XADD of the turn', async () => {
      sink = await connectedSink(100);
      const publishes = ['a', 'b'].map((body) => sink!.publish(Buffer.from(body)));
      await redis.received(3);
      redis.reply();
      await Promise.all(publishes);
      expect(redis.xadds.map(({ args }) => args)).toEqual(['first', 'a', 'b'].map((body) => ['xadd', 'events', 'MAXLEN', '~', '100', '*', 'body', body]));
    });
  });
});
