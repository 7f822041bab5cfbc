// How a cached answer is kept in the store: the upstream's status and headers (JSON) and its body, in one buffer
// (u32 length of the head, the head, the body). A buffer that does not decode is treated as a miss.
import type { ResponseHead } from '../../pipeline/contract.ts';

export interface CachedAnswer {
  status: number;
  headers: ResponseHead['headers'];
  body: Buffer;
}

export function encodeCachedAnswer(answer: CachedAnswer): Buffer {
  const head = Buffer.from(JSON.stringify({ s: answer.status, h: answer.headers }));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(head.length);
  return Buffer.concat([length, head, answer.body]);
}

export function decodeCachedAnswer(entry: Buffer): CachedAnswer | undefined {
  try {
    if (entry.length < 4) return undefined;
    const headEnd = 4 + entry.readUInt32BE(0);
    if (headEnd > entry.length) return undefined;
    const head = JSON.parse(entry.subarray(4, headEnd).toString('utf8')) as { s?: unknown; h?: unknown };
    if (typeof head.s !== 'number' || typeof head.h !== 'object' || head.h === null) return undefined;
    return { status: head.s, headers: head.h as ResponseHead['headers'], body: entry.subarray(headEnd) };
  } catch {
    return undefined;
  }
}
