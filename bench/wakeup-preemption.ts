// bench/wakeup-preemption: whether waking a thread on the waker's own core preempts the waker at once (Linux's
// wake-up preemption), under the default policy and under SCHED_BATCH (what plugin-worker.ts asks for on one core).
// The main thread notifies a worker waiting on a shared word (Atomics.notify, as the plugin pool does), then spins
// until the worker has written back: the delay is ~0 when the worker preempted it, about a time slice when not.
//   taskset -c 0 node scripts/node24.mjs node bench/wakeup-preemption.ts
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';

const WORKER = `
const { workerData } = require('node:worker_threads');
const words = new Int32Array(workerData.shared);
if (workerData.batch) {
  const thread = require('node:fs').readlinkSync('/proc/thread-self').split('/').at(-1);
  require('node:child_process').execFileSync('chrt', ['--batch', '--pid', '0', thread]);
}
Atomics.store(words, 2, 1);
for (;;) {
  Atomics.wait(words, 0, Atomics.load(words, 0));
  Atomics.store(words, 1, Atomics.load(words, 0));
}`;

async function delays(batch: boolean): Promise<number[]> {
  const shared = new SharedArrayBuffer(12);
  const words = new Int32Array(shared);
  const worker = new Worker(WORKER, { eval: true, workerData: { shared, batch } });
  while (Atomics.load(words, 2) === 0) await sleep(10);
  const out: number[] = [];
  for (let i = 1; i <= 200; i++) {
    Atomics.store(words, 0, i);
    Atomics.notify(words, 0);
    const start = process.hrtime.bigint();
    let seen = Infinity;
    while (process.hrtime.bigint() - start < 20_000_000n) {
      if (Atomics.load(words, 1) === i) {
        seen = Number(process.hrtime.bigint() - start) / 1000;
        break;
      }
    }
    out.push(seen);
    await sleep(2); // the main thread blocks: the worker, if still waiting to run, runs now
  }
  await worker.terminate();
  return out.sort((a, b) => a - b);
}

for (const batch of [false, true]) {
  const sorted = await delays(batch);
  const at = (q: number) => sorted[Math.floor(q * (sorted.length - 1))]!.toFixed(0);
  console.log(
    `${batch ? 'SCHED_BATCH' : 'default policy'}: the woken worker ran ${at(0.1)} / ${at(0.5)} / ${at(0.9)} µs (p10 / median / p90) after the notify`,
  );
}
