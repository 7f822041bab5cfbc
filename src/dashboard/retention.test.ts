// Retention (retention.ts) with a stand-in prune: the cutoff is the injected clock minus the retention, and a failed
// prune is logged (naming the kind of data), never thrown.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { Queryable } from '../db/database.ts';
import { Retention } from './retention.ts';

const NO_DB: Queryable = { query: () => Promise.reject(new Error('the stand-in prune never queries')) };
const NOW = Date.parse('2030-06-15T00:00:00Z');

describe('Retention', () => {
  it('prunes once at start with the cutoff of the injected clock', async () => {
    const cutoffs: number[] = [];
    const retention = new Retention(
      NO_DB,
      { what: 'test rows', retentionDays: 2.5, intervalSeconds: 3600, now: () => NOW, prune: async (_db, before) => (cutoffs.push(before), 0) },
      pino({ level: 'silent' }),
    );
    await retention.stop();
    expect(cutoffs).toEqual([NOW - 2.5 * 86_400_000]);
  });

  it('logs a failed prune with the kind of data, never throwing', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const retention = new Retention(
      NO_DB,
      { what: 'audit log', retentionDays: 1, intervalSeconds: 3600, prune: () => Promise.reject(new Error('db down')) },
      log,
    );
    await retention.stop();
    expect(lines.map((l) => JSON.parse(l) as { msg: string; err: string })).toEqual([
      expect.objectContaining({ msg: 'audit log retention: delete failed; retried next interval', err: 'db down' }),
    ]);
  });
});
