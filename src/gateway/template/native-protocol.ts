// The frames between the gateway and the native engine process (engine/serve_native.go documents them): encoding
// requests and cutting replies out of the engine's output stream. Bytes only: no process, no timing.
import type { InputFormat } from './engine.ts';

const OP_COMPILE = 1;
const OP_EXECUTE = 2;
const OP_RELEASE = 3;
const FORMAT_CODE: Record<InputFormat, number> = { json: 0, xml: 1 };

/** A reply's status byte. */
export const ReplyStatus = { Output: 0, Failed: 1, Undecodable: 2 } as const;
export type ReplyStatus = (typeof ReplyStatus)[keyof typeof ReplyStatus];

export interface Reply {
  id: number;
  status: ReplyStatus;
  payload: Buffer;
}

export function compileFrame(key: number, name: string, source: string): Buffer {
  const nameBytes = Buffer.from(name);
  const sourceBytes = Buffer.from(source);
  const frame = Buffer.allocUnsafe(4 + 1 + 8 + nameBytes.length + sourceBytes.length);
  frame.writeUInt32LE(frame.length - 4, 0);
  frame[4] = OP_COMPILE;
  frame.writeUInt32LE(key, 5);
  frame.writeUInt32LE(nameBytes.length, 9);
  nameBytes.copy(frame, 13);
  sourceBytes.copy(frame, 13 + nameBytes.length);
  return frame;
}

export function releaseFrame(key: number): Buffer {
  const frame = Buffer.allocUnsafe(9);
  frame.writeUInt32LE(5, 0);
  frame[4] = OP_RELEASE;
  frame.writeUInt32LE(key, 5);
  return frame;
}

/** The frame's head; the input and extra bytes follow it as they are (written together, no copy). */
export function executeHead(id: number, key: number, format: InputFormat, input: Uint8Array, extra: Uint8Array | undefined): Buffer {
  const head = Buffer.allocUnsafe(18);
  head.writeUInt32LE(14 + input.length + (extra?.length ?? 0), 0);
  head[4] = OP_EXECUTE;
  head.writeUInt32LE(id, 5);
  head.writeUInt32LE(key, 9);
  head[13] = FORMAT_CODE[format];
  head.writeUInt32LE(input.length, 14);
  return head;
}

/** Cuts replies out of the engine's stdout, however the stream splits them. */
export class ReplyReader {
  #pending: Buffer = Buffer.alloc(0);

  /** Every complete reply in `chunk` (and what was left over before it). */
  push(chunk: Buffer): Reply[] {
    let data = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    const replies: Reply[] = [];
    while (data.length >= 4) {
      const size = data.readUInt32LE(0);
      if (data.length < 4 + size) break;
      // The payload is copied out: the chunk's memory may be a pooled slab shared with what follows.
      replies.push({ id: data.readUInt32LE(4), status: data[8] as ReplyStatus, payload: Buffer.from(data.subarray(9, 4 + size)) });
      data = data.subarray(4 + size);
    }
    this.#pending = data;
    return replies;
  }
}
