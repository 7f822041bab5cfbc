// Durability for the embedded store: a snapshot file plus an append-only journal of records, both JSON lines.
// Every record states an absolute value (this key now is X; this quota counter now is N), never an increment, so
// replaying the journal over the snapshot is idempotent, order within one id is all that matters, and a crash at
// any point loses nothing already written.
//
// Two kinds of append:
//   appendDurable  management writes (APIs, policies, keys): resolves once the record is written AND fsynced, so
//                  an acknowledged change survives a machine crash. Awaited, never blocking the event loop. The
//                  record is serialized before anything is queued (a value JSON cannot write throws there, with
//                  nothing written) and the caller's `commit` runs once it is durable, in append order, before any
//                  compaction could snapshot the state: so the store's memory changes exactly when the journal
//                  holds the record, never when the write failed.
//   append         counter updates, one per limited request: queued in memory, the latest value per counter
//                  only (records state absolute values: an older one of the same counter is superseded), and
//                  handed to the kernel every COUNTER_BATCH_MS in ONE write on libuv's pool (or sooner, with a
//                  management write), then fsynced within `fsyncIntervalMs`. A SIGKILL can lose only the counts not
//                  yet handed over: those of the last few milliseconds. (A write per event-loop turn and a line per
//                  request cost twice the CPU, and filled the journal to a synchronous compaction every million or
//                  so requests.) With `syncCounters` each count is written with write(2) before the request goes on
//                  instead (nothing lost to a SIGKILL), at the price measured in bench/proxy: a synchronous
//                  write on ext4 blocks while the filesystem commits its own journal, stalling every request in
//                  flight for tens of milliseconds on a slow disk.
// Records leave in the order they were appended (one writer at a time), except that within a batch the counter
// updates go first (#takeLines says why).
//
// Compaction rewrites the live state to snapshot.jsonl.tmp, fsyncs it, renames it over snapshot.jsonl, fsyncs
// the directory and empties the journal; records queued meanwhile are written after it (they are in the snapshot
// already: writing them again is harmless). A crash between any two steps leaves a state that replays correctly.
// Hand-written because no small library gives exactly these guarantees.
import { closeSync, existsSync, fstatSync, fsync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, renameSync, write, writeSync } from 'node:fs';
import { join } from 'node:path';

/** How long counter updates wait to be written together (management writes do not wait). */
const COUNTER_BATCH_MS = 5;

export interface JournalRecord {
  /** What the record is about: a record type chosen by the store ("api", "policy", "key", "quota"). */
  t: string;
  id: string;
  /** The new value; absent means deleted. */
  v?: unknown;
}

export interface JournalOptions {
  /** Longest time a counter update waits for fsync. Default 1000 ms. */
  fsyncIntervalMs?: number;
  /** Journal size that triggers a compaction, and at least 8x the last snapshot's size. Default 64 MiB. */
  compactAtBytes?: number;
  /** Write every counter update synchronously (see above). Default false. */
  syncCounters?: boolean;
}

export class Journal {
  readonly #dir: string;
  readonly #snapshot: () => Iterable<JournalRecord>;
  readonly #fsyncIntervalMs: number;
  readonly #compactAtBytes: number;
  readonly #syncCounters: boolean;
  #fd = -1;
  #size = 0;
  #snapshotSize = 0;
  /** Lines waiting to be written, and the durable appends waiting for their fsync. */
  #pending: string[] = [];
  /** Counter updates waiting to be written: the latest line per record type and id, written before #pending. */
  #counters = new Map<string, string>();
  #counterTimer: NodeJS.Timeout | undefined;
  #waiters: Waiter[] = [];
  #writing = false;
  #scheduled = false;
  #lastSync = Date.now();
  #syncTimer: NodeJS.Timeout | undefined;
  #failure: Error | undefined;

  /** `snapshot` yields the store's whole live state; it is called when the journal compacts. */
  constructor(dir: string, snapshot: () => Iterable<JournalRecord>, options: JournalOptions = {}) {
    this.#dir = dir;
    this.#snapshot = snapshot;
    this.#fsyncIntervalMs = options.fsyncIntervalMs ?? 1000;
    this.#compactAtBytes = options.compactAtBytes ?? 64 * 1024 * 1024;
    this.#syncCounters = options.syncCounters ?? false;
  }

  get #journalPath(): string {
    return join(this.#dir, 'journal.jsonl');
  }

  get #snapshotPath(): string {
    return join(this.#dir, 'snapshot.jsonl');
  }

  /** Reads snapshot then journal, in order; a torn last line (crash mid-write) is skipped. Then opens for append. */
  open(): JournalRecord[] {
    mkdirSync(this.#dir, { recursive: true });
    const records = [...readLines(this.#snapshotPath), ...readLines(this.#journalPath)];
    this.#fd = openSync(this.#journalPath, 'a');
    this.#size = fstatSync(this.#fd).size;
    return records;
  }

  /** A counter update: queued for the next batch (or written now with syncCounters). */
  append(record: JournalRecord): void {
    this.#assertOpen();
    const line = `${serialize(record)}\n`;
    if (this.#syncCounters && !this.#writing && this.#pending.length === 0 && this.#counters.size === 0) {
      this.#size += writeSync(this.#fd, line);
      this.#scheduleSync();
      return;
    }
    this.#counters.set(`${record.t}\n${record.id}`, line);
    this.#scheduleCounters();
  }

  /**
   * A management write of one record or several that belong together (written in one write(2)): `commit`
   * (applying them to memory) runs once they are written and fsynced, then the promise resolves. Throws (nothing
   * queued, nothing committed) when a record cannot be serialized; rejects (nothing committed) when the write or
   * fsync fails.
   */
  appendDurable(records: JournalRecord | JournalRecord[], commit: () => void): Promise<void> {
    this.#assertOpen();
    const lines = (Array.isArray(records) ? records : [records]).map((record) => `${serialize(record)}\n`).join('');
    this.#pending.push(lines);
    const done = new Promise<void>((resolve, reject) => this.#waiters.push({ commit, resolve, reject }));
    this.#schedule();
    return done;
  }

  /** Rewrites the snapshot from the live state and empties the journal (synchronously). */
  compact(): void {
    const tmp = `${this.#snapshotPath}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      let chunk = '';
      let written = 0;
      for (const record of this.#snapshot()) {
        chunk += `${serialize(record)}\n`;
        if (chunk.length > 1 << 20) {
          written += writeSync(fd, chunk);
          chunk = '';
        }
      }
      written += writeSync(fd, chunk);
      fsyncSync(fd);
      this.#snapshotSize = written;
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.#snapshotPath);
    syncDirectory(this.#dir);
    ftruncateSync(this.#fd, 0);
    fsyncSync(this.#fd);
    this.#size = 0;
  }

  /** Writes and fsyncs everything queued, synchronously (shutdown); then closes. */
  close(): void {
    if (this.#fd < 0) return;
    if (this.#syncTimer) clearTimeout(this.#syncTimer);
    if (this.#counterTimer) clearTimeout(this.#counterTimer);
    const lines = this.#takeLines();
    if (lines) this.#size += writeSync(this.#fd, lines);
    fsyncSync(this.#fd);
    settle(this.#waiters.splice(0));
    closeSync(this.#fd);
    this.#fd = -1;
  }

  #assertOpen(): void {
    if (this.#fd < 0) throw new Error('journal is not open');
    if (this.#failure) throw new Error(`journal cannot be written: ${this.#failure.message}`, { cause: this.#failure });
  }

  /** One batch per event-loop turn: everything appended during the turn leaves in one write. */
  #schedule(): void {
    if (this.#scheduled || this.#writing) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#drain();
    });
  }

  /** Counter updates wait up to COUNTER_BATCH_MS, so that a busy gateway writes a few batches a second, not one per turn. */
  #scheduleCounters(): void {
    if (this.#counterTimer || this.#scheduled || this.#writing) return;
    this.#counterTimer = setTimeout(() => {
      this.#counterTimer = undefined;
      this.#drain();
    }, COUNTER_BATCH_MS);
  }

  /**
   * Everything queued, as one string: the counter updates first. A management write (a counter reset) is applied to
   * memory only once this batch is written, after every update of the batch: the file says the same in that order.
   */
  #takeLines(): string {
    let lines = '';
    for (const line of this.#counters.values()) lines += line;
    this.#counters.clear();
    lines += this.#pending.join('');
    this.#pending = [];
    return lines;
  }

  #drain(): void {
    if (this.#writing || (this.#pending.length === 0 && this.#counters.size === 0) || this.#fd < 0) return;
    if (this.#counterTimer) {
      clearTimeout(this.#counterTimer);
      this.#counterTimer = undefined;
    }
    this.#writing = true;
    const buffer = Buffer.from(this.#takeLines());
    const waiters = this.#waiters.splice(0);
    writeAll(this.#fd, buffer, (error) => {
      if (error) return this.#fail(error, waiters);
      this.#size += buffer.length;
      const finish = (): void => {
        this.#writing = false;
        settle(waiters);
        if (this.#size >= Math.max(this.#compactAtBytes, 8 * this.#snapshotSize)) this.compact();
        if (this.#pending.length > 0) this.#drain();
        else if (this.#counters.size > 0) this.#scheduleCounters();
      };
      if (waiters.length > 0) {
        fsync(this.#fd, (syncError) => {
          if (syncError) return this.#fail(syncError, waiters);
          this.#lastSync = Date.now();
          finish();
        });
      } else {
        this.#scheduleSync();
        finish();
      }
    });
  }

  /** Counter updates are fsynced within fsyncIntervalMs, on the pool. */
  #scheduleSync(): void {
    if (this.#syncTimer) return;
    const wait = Math.max(0, this.#fsyncIntervalMs - (Date.now() - this.#lastSync));
    this.#syncTimer = setTimeout(() => {
      this.#syncTimer = undefined;
      if (this.#fd < 0) return;
      this.#lastSync = Date.now();
      fsync(this.#fd, () => {
        // A failed fsync leaves the data in the kernel (it survives a process crash); the next one retries.
      });
    }, wait);
    this.#syncTimer.unref();
  }

  #fail(error: Error, waiters: Waiter[]): void {
    this.#failure = error;
    this.#writing = false;
    for (const waiter of waiters) waiter.reject(error);
  }
}

/** A durable append waiting for its fsync: commit, then resolve; or reject without committing. */
interface Waiter {
  commit: () => void;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** Commits every waiter's record in append order, then resolves them. */
function settle(waiters: Waiter[]): void {
  for (const waiter of waiters) waiter.commit();
  for (const waiter of waiters) waiter.resolve();
}

function writeAll(fd: number, buffer: Buffer, done: (error: Error | null) => void, offset = 0): void {
  write(fd, buffer, offset, buffer.length - offset, null, (error, written) => {
    if (error) return done(error);
    if (offset + written < buffer.length) return writeAll(fd, buffer, done, offset + written);
    done(null);
  });
}

/** A record as one JSON line; quota counters (one per proxied request) are written without building an object. */
function serialize(record: JournalRecord): string {
  const value = record.v as { used?: unknown; renewsAt?: unknown } | undefined;
  if (record.t === 'quota' && value && typeof value.used === 'number' && typeof value.renewsAt === 'number' && Object.keys(value).length === 2) {
    return `{"t":"quota","id":${JSON.stringify(record.id)},"v":{"used":${value.used},"renewsAt":${value.renewsAt}}}`;
  }
  return JSON.stringify(record);
}

function readLines(path: string): JournalRecord[] {
  if (!existsSync(path)) return [];
  const records: JournalRecord[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line === '') continue;
    try {
      records.push(JSON.parse(line) as JournalRecord);
    } catch {
      // A line cut short by a crash mid-write: everything before it is intact, nothing after it exists.
    }
  }
  return records;
}

function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
