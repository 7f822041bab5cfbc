// The XADD a Redis Streams output sends for one message, as an ioredis Command whose bytes are built once per
// message: the RESP head (XADD, the stream, MAXLEN ~ N when set, the id `*`, the field name and the `$` of the
// message's length) is encoded once per output (xaddHead), and each message adds only its length, its bytes and
// CRLF, in one buffer from Node's pool. The same command serves the corked writes of a connected client and the
// pipeline of one still connecting (redis-streams.ts), so both send the same bytes. ioredis's own xadd() built a
// rest-argument array, a flattened copy of it, a string per argument and a list of pieces concatenated at the end
// for every message.
import { Command } from 'ioredis';

/** RESP of `xadd stream [MAXLEN ~ maxLength] * field` (lower case, as ioredis sends it), then the `$` of the value's length. */
export function xaddHead(stream: string, maxLength: number, field: string): Buffer {
  const args = maxLength > 0 ? ['xadd', stream, 'MAXLEN', '~', String(maxLength), '*', field] : ['xadd', stream, '*', field];
  let head = `*${args.length + 1}\r\n`;
  for (const arg of args) head += `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`;
  return Buffer.from(`${head}$`);
}

/** No arguments for ioredis to stringify: the bytes are toWritable's (ioredis reads args only for debug logs). */
const NO_ARGS: never[] = [];

/** One message's XADD; its promise settles with the command's reply (the entry id, as bytes) or error. */
export class XaddCommand extends Command {
  readonly #head: Buffer;
  readonly #message: Buffer;

  constructor(head: Buffer, message: Buffer) {
    // replyEncoding null: the entry id stays the reply's bytes (nobody reads it; no string is decoded).
    super('xadd', NO_ARGS, { replyEncoding: null });
    this.#head = head;
    this.#message = message;
  }

  /** The head, the message's length, CRLF, the message, CRLF: written by ioredis as one buffer. */
  override toWritable(): Buffer {
    const head = this.#head;
    const message = this.#message;
    const length = String(message.length);
    const bytes = Buffer.allocUnsafe(head.length + length.length + message.length + 4);
    let at = head.copy(bytes, 0);
    at += bytes.write(length, at, 'latin1');
    at = bytes.writeUInt16BE(CRLF, at);
    at += message.copy(bytes, at);
    bytes.writeUInt16BE(CRLF, at);
    return bytes;
  }
}

const CRLF = 0x0d0a;
