import bcryptjs from 'bcryptjs';
import { afterAll, describe, expect, it } from 'vitest';
import { BcryptPool, HashingBusyError } from './bcrypt-pool.ts';

describe('BcryptPool (real worker threads)', () => {
  const pools: BcryptPool[] = [];
  afterAll(() => Promise.all(pools.map((pool) => pool.close())));
  const pool = (size: number, queue: number) => {
    const made = new BcryptPool({ size, queue });
    pools.push(made);
    return made;
  };

  it('hashes and compares in its workers, compatibly with bcryptjs', async () => {
    const bcrypt = pool(2, 8);
    const hash = await bcrypt.hash('secret', 4);
    expect(bcryptjs.compareSync('secret', hash)).toBe(true);
    expect(await bcrypt.compare('secret', hash)).toBe(true);
    expect(await bcrypt.compare('other', hash)).toBe(false);
    expect(await bcrypt.compare('secret', 'not a bcrypt hash')).toBe(false);
  });

  it('runs at most size checks, queues at most queue more, refuses the rest at once with HashingBusyError', async () => {
    const bcrypt = pool(1, 2);
    const hash = bcryptjs.hashSync('p', 4);
    const checks = Array.from({ length: 5 }, (_, i) =>
      bcrypt.compare(`guess-${i}`, hash).then(
        (ok) => ok,
        (error: unknown) => error,
      ),
    );
    expect(bcrypt.load).toEqual({ running: 1, waiting: 2 });
    const outcomes = await Promise.all(checks);
    expect(outcomes.slice(0, 3)).toEqual([false, false, false]);
    expect(outcomes.slice(3).every((outcome) => outcome instanceof HashingBusyError)).toBe(true);
    expect(bcrypt.load).toEqual({ running: 0, waiting: 0 });
  });
});
