// A plugin worker's journal: the answers of the jobs it ran from its current message and has not posted yet, in
// shared memory, so that a worker ended in the middle of a message (a later job over its time limit, its heap
// exhausted) loses none of them: the pool reads the journal once the worker has exited (plugin-pool.ts). The worker
// adds each answer as its job ends and empties the journal once it posted them; an answer that does not fit is posted
// at once with those before it. Layout: Int32 count, Int32 bytes used, then per answer its job id (Int32), its
// length (Int32) and its UTF-8 text: 'R' + value, 'U' (no value), 'E' + message, 'T' + message (timed out), 'W'
// (withdrawn: skipped, never run).
import { readAnswer, type AnswerText, type WorkerAnswer } from './worker-protocol.ts';

/** Bytes of one worker's journal. */
export const JOURNAL_BYTES = 64 * 1024;
const HEADER_BYTES = 8;
const ENTRY_HEADER_BYTES = 8;

const encoder = new TextEncoder();

export class AnswerJournal {
  readonly #words: Int32Array;
  readonly #view: DataView;
  readonly #bytes: Uint8Array;
  #used = HEADER_BYTES;
  #count = 0;

  constructor(buffer: SharedArrayBuffer) {
    this.#words = new Int32Array(buffer, 0, 2);
    this.#view = new DataView(buffer);
    this.#bytes = new Uint8Array(buffer);
  }

  /** Adds job `id`'s answer; false when it does not fit (the journal is unchanged). */
  add(id: number, text: AnswerText): boolean {
    const start = this.#used + ENTRY_HEADER_BYTES;
    if (start + text.length > this.#bytes.length) return false; // each character is at least one byte
    const { read, written } = encoder.encodeInto(text, this.#bytes.subarray(start));
    if (read < text.length) return false;
    this.#view.setInt32(this.#used, id, true);
    this.#view.setInt32(this.#used + 4, written, true);
    this.#used = start + written;
    this.#count += 1;
    Atomics.store(this.#words, 1, this.#used);
    Atomics.store(this.#words, 0, this.#count);
    return true;
  }

  clear(): void {
    if (this.#count === 0) return;
    this.#used = HEADER_BYTES;
    this.#count = 0;
    Atomics.store(this.#words, 0, 0);
  }
}

/** The answers a journal holds, in order (read once its worker has exited). */
export function readJournal(buffer: SharedArrayBuffer): WorkerAnswer[] {
  const words = new Int32Array(buffer, 0, 2);
  const view = new DataView(buffer);
  const count = Atomics.load(words, 0);
  const answers: WorkerAnswer[] = [];
  let offset = HEADER_BYTES;
  for (let i = 0; i < count; i++) {
    const id = view.getInt32(offset, true);
    const length = view.getInt32(offset + 4, true);
    const start = offset + ENTRY_HEADER_BYTES;
    answers.push(readAnswer(id, Buffer.from(new Uint8Array(buffer, start, length)).toString('utf8')));
    offset = start + length;
  }
  return answers;
}
