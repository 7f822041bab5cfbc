// The `workers` option: 0 follows the cores, a number is taken as is, licensed mode runs one.
import { describe, expect, it } from 'vitest';
import { workerCount } from './worker-count.ts';

const ce = { use_db_app_configs: false, policies: { policy_source: 'file' as const } };

describe('workerCount', () => {
  it('runs one worker per core by default (0) and the number given otherwise', () => {
    expect(workerCount({ ...ce, workers: 0 }, 6)).toBe(6);
    expect(workerCount({ ...ce, workers: 3 }, 6)).toBe(3);
    expect(workerCount({ ...ce, workers: 1 }, 6)).toBe(1);
  });

  it('runs one worker in licensed mode, whatever the option says', () => {
    expect(workerCount({ ...ce, use_db_app_configs: true, workers: 4 }, 6)).toBe(1);
    expect(workerCount({ ...ce, policies: { policy_source: 'service' }, workers: 0 }, 6)).toBe(1);
  });
});
