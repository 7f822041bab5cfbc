// bench/step-timing: what timing a pipeline step into gw_step_duration_seconds{step} costs, in-process: a trivial
// synchronous step run with and without the handler's timing (one performance.now() per step and one observation on
// the step's series, found at compile time: step-durations.ts), interleaved in rounds, medians reported. The
// difference, times the steps a request runs (a keyless API: 2, plus one read before the first), against
// bench/proxy's keyless CPU per request, is the share timing adds.
//
//   node scripts/node24.mjs node bench/step-timing.ts [--iterations 2000000 --rounds 7]
import { parseArgs } from 'node:util';
import { GatewayMetrics } from '../src/gateway/metrics.ts';

const { values } = parseArgs({ options: { iterations: { type: 'string', default: '2000000' }, rounds: { type: 'string', default: '7' } } });
const iterations = Number(values.iterations);
const rounds = Number(values.rounds);
const timer = new GatewayMetrics().stepTimer('bench');
const ctx = { seen: 0 };
const step = (c: typeof ctx): boolean => (c.seen++ & 1) === 2;

function untimed(): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) if (step(ctx)) return 0;
  return Number(process.hrtime.bigint() - start) / iterations;
}

/** As proxy/handler.ts runs steps: one clock read per step, a step's end being the next one's start. */
function timed(): number {
  const start = process.hrtime.bigint();
  let started = performance.now();
  for (let i = 0; i < iterations; i++) {
    const outcome = step(ctx);
    const now = performance.now();
    timer((now - started) / 1000);
    started = now;
    if (outcome) return 0;
  }
  return Number(process.hrtime.bigint() - start) / iterations;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const plain: number[] = [];
const withTiming: number[] = [];
for (let round = 0; round < rounds; round++) {
  plain.push(untimed());
  withTiming.push(timed());
}
const added = median(withTiming) - median(plain);
process.stdout.write(
  `step without timing ${median(plain).toFixed(1)} ns, with ${median(withTiming).toFixed(1)} ns: timing adds ${added.toFixed(1)} ns per step, ` +
    `${((2 * added) / 1000).toFixed(3)} µs per keyless request (2 steps)\n`,
);
