// XaddCommand's bytes: exactly what ioredis's own xadd() writes for the same arguments (so Redis, and every tool
// reading the connection, sees the same command), for a stream with and without MAXLEN, any bytes in the message.
import { Command } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { XaddCommand, xaddHead } from './redis-xadd.ts';

/** The bytes ioredis writes for xadd(...args). */
function ioredisBytes(args: (string | Buffer)[]): Buffer {
  const written = new Command('xadd', args).toWritable({});
  return Buffer.isBuffer(written) ? written : Buffer.from(written, 'latin1');
}

describe('XaddCommand', () => {
  const message = Buffer.from([0x00, 0x0d, 0x0a, 0xff, 0x7b, 0x22]);

  it('writes an XADD without MAXLEN as ioredis does', () => {
    const bytes = new XaddCommand(xaddHead('events', 0, 'body'), message).toWritable();
    expect(bytes).toEqual(ioredisBytes(['events', '*', 'body', message]));
  });

  it('writes MAXLEN ~ as ioredis does', () => {
    const bytes = new XaddCommand(xaddHead('events', 1000, 'payload'), message).toWritable();
    expect(bytes).toEqual(ioredisBytes(['events', 'MAXLEN', '~', '1000', '*', 'payload', message]));
  });

  it('counts a name in bytes, not characters, and carries an empty message', () => {
    const bytes = new XaddCommand(xaddHead('événements', 0, 'body'), Buffer.alloc(0)).toWritable();
    expect(bytes).toEqual(ioredisBytes(['événements', '*', 'body', Buffer.alloc(0)]));
  });

  it('writes a message of several KiB (past the pool) whole', () => {
    const large = Buffer.alloc(10_000, 'x');
    expect(new XaddCommand(xaddHead('s', 0, 'body'), large).toWritable()).toEqual(ioredisBytes(['s', '*', 'body', large]));
  });
});
