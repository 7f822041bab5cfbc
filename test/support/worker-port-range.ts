// The loopback ports of one vitest worker (VITEST_POOL_ID, 1 to maxWorkers): 1 500 ports each from 12000, so up to
// 13 workers fit below 32768, where Linux's ephemeral ports begin. test/support/worker-ports.ts applies it.
import type { PortRange } from '../../src/up/ports.ts';

const FIRST = 12_000;
const PER_WORKER = 1_500;
const EPHEMERAL = 32_768;

/** Undefined outside a worker, or for a pool id beyond the ports below the ephemeral range. */
export function workerPortRange(poolId: string | undefined): PortRange | undefined {
  const id = Number(poolId);
  if (!Number.isInteger(id) || id < 1) return undefined;
  const first = FIRST + (id - 1) * PER_WORKER;
  const last = first + PER_WORKER - 1;
  return last < EPHEMERAL ? { first, last } : undefined;
}
