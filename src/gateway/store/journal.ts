// Durability for the embedded store: a snapshot file plus an append-only journal of records, both JSON lines.
// Every record states an absolute value (this key now is X; this quota counter now is N), never an increment, so
// replaying the journal over the snapshot is idempotent and a crash at any point loses nothing already written.
//
// Writes use write(2) synchronously before the caller goes on: once `append` returns, the record is in the
// kernel and survives a SIGKILL of the gateway. `durable: true` (management writes: APIs, policies, keys) also
// fsyncs before returning, surviving a machine crash; counter updates are fsynced at most `fsyncIntervalMs` later,
// on libuv's thread pool — never on the event loop, where a disk flush would stall every request in flight (a
// machine crash may lose that last interval of quota counting; a process crash loses nothing).
//
// Compaction writes the live state to snapshot.jsonl.tmp, fsyncs it, renames it over snapshot.jsonl, fsyncs the
// directory, then empties the journal. A crash between any two steps leaves a state that replays correctly.
// Hand-written because it is ~150 lines and no small library gives exactly these guarantees synchronously.
import { closeSync, existsSync, fstatSync, fsync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface JournalRecord {
  /** What the record is about: a record type chosen by the store ("api", "policy", "key", "quota"). */
  t: string;
  id: string;
  /** The new value; absent means deleted. */
  v?: unknown;
}

export interface JournalOptions {
  /** Longest time an appended non-durable record waits for fsync. Default 1000 ms. */
  fsyncIntervalMs?: number;
  /** Journal size that triggers a compaction, and at least 8x the last snapshot's size. Default 64 MiB. */
  compactAtBytes?: number;
}

export class Journal {
  readonly #dir: string;
  readonly #snapshot: () => Iterable<JournalRecord>;
  readonly #fsyncIntervalMs: number;
  readonly #compactAtBytes: number;
  #fd = -1;
  #size = 0;
  #snapshotSize = 0;
  #dirty = false;
  #timer: NodeJS.Timeout | undefined;

  /** `snapshot` yields the store's whole live state; it is called when the journal compacts. */
  constructor(dir: string, snapshot: () => Iterable<JournalRecord>, options: JournalOptions = {}) {
    this.#dir = dir;
    this.#snapshot = snapshot;
    this.#fsyncIntervalMs = options.fsyncIntervalMs ?? 1000;
    this.#compactAtBytes = options.compactAtBytes ?? 64 * 1024 * 1024;
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

  append(record: JournalRecord, options: { durable: boolean }): void {
    if (this.#fd < 0) throw new Error('journal is not open');
    const line = `${serialize(record)}\n`;
    this.#size += writeSync(this.#fd, line);
    if (options.durable) {
      fsyncSync(this.#fd);
      this.#dirty = false;
    } else if (!this.#dirty) {
      this.#dirty = true;
      this.#timer = setTimeout(() => this.#flushInBackground(), this.#fsyncIntervalMs);
      this.#timer.unref();
    }
    // Compaction rewrites the whole state on the event loop: do it when the journal dwarfs the snapshot, so its
    // cost stays a small fraction of the writes that led to it.
    if (this.#size >= Math.max(this.#compactAtBytes, 8 * this.#snapshotSize)) this.compact();
  }

  #flushInBackground(): void {
    this.#timer = undefined;
    if (!this.#dirty || this.#fd < 0) return;
    this.#dirty = false;
    fsync(this.#fd, () => {
      // A failed fsync leaves the data in the kernel, where it survives a process crash; the next one retries.
    });
  }

  /** fsyncs what was appended since the last fsync (synchronously: for close and tests). */
  flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#dirty && this.#fd >= 0) fsyncSync(this.#fd);
    this.#dirty = false;
  }

  /** Rewrites the snapshot from the live state and empties the journal. */
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
    this.#dirty = false;
  }

  close(): void {
    if (this.#fd < 0) return;
    this.flush();
    closeSync(this.#fd);
    this.#fd = -1;
  }
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
