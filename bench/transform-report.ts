// bench/proxy's body-transform lines (issue 12): the ratio of the 1 KiB JSON POST with the reshaping request body
// transform to the same API without it, for the native engine process (the gateway's default when it is built) and
// for the WebAssembly worker (a second gateway with GW_TEMPLATE_ENGINE_NATIVE=off), each as the median of the
// per-round ratios (a round runs the scenarios back to back, so each ratio compares neighbours) with its spread;
// what the transform adds per request on gw's core (1/rps with it minus 1/rps without it, medians); the CPU the
// gateway's process tree (engine process or worker thread included) spends per request, and the ratio of those
// costs (plain / with the transform: what the throughput ratio is on a quiet machine, where the pinned core is gw's
// alone; on a shared machine the throughput ratio also measures the scheduler); and, measured in this process,
// what one crossing into WebAssembly and the reshaping template inside it cost.
import { locateTemplateEngine } from '../src/gateway/template/artefact.ts';
import { TemplateEngine } from '../src/gateway/template/engine.ts';
import { RESHAPE_TEMPLATE } from './json-body.ts';

export const PLAIN_JSON = 'gw keyless POST 1 KiB JSON';
export const NATIVE_TRANSFORM = 'gw keyless POST 1 KiB JSON + transform';
export const WASM_TRANSFORM = 'gw keyless POST 1 KiB JSON + transform, WASM worker';

interface Run {
  rps: number;
  cpuUs?: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Empty unless the plain scenario and at least one transform scenario ran. */
export function transformLines(runs: Map<string, Run[]>, body: Buffer): string[] {
  const plain = runs.get(PLAIN_JSON);
  if (!plain) return [];
  const lines: string[] = [];
  for (const [name, label] of [
    [NATIVE_TRANSFORM, 'native engine process'],
    [WASM_TRANSFORM, 'WASM worker thread'],
  ] as const) {
    const transformed = runs.get(name);
    if (!transformed) continue;
    const ratios = transformed.map((run, round) => run.rps / plain[round]!.rps);
    const ratio = median(ratios);
    const addedUs = (1 / median(transformed.map((r) => r.rps)) - 1 / median(plain.map((r) => r.rps))) * 1e6;
    lines.push(
      `gw body transform (${label}) / same API without it (1 KiB JSON POST): ${ratio.toFixed(2)}x ` +
        `(rounds ${ratios.map((r) => r.toFixed(2)).join(' ')}; target >= 0.50x): ${ratio >= 0.5 ? 'met' : 'NOT met'}; it adds ${addedUs.toFixed(0)} µs per request on gw's core`,
    );
    const cpu = (list: Run[]): number[] => list.flatMap((run) => (run.cpuUs === undefined ? [] : [run.cpuUs]));
    const [plainCpu, transformedCpu] = [cpu(plain), cpu(transformed)];
    if (plainCpu.length > 0 && transformedCpu.length === plainCpu.length) {
      const costRatios = transformedCpu.map((us, round) => plainCpu[round]! / us);
      lines.push(
        `  CPU per request: ${median(plainCpu).toFixed(0)} µs without, ${median(transformedCpu).toFixed(0)} µs with it; cost ratio ${median(costRatios).toFixed(2)}x ` +
          `(rounds ${costRatios.map((r) => r.toFixed(2)).join(' ')})`,
      );
    }
  }
  if (lines.length === 0) return [];
  const engine = TemplateEngine.load(locateTemplateEngine());
  const constant = engine.compile('bench', 'x');
  const reshape = engine.compile('bench', RESHAPE_TEMPLATE);
  const perCallUs = (op: () => unknown): number => {
    for (let i = 0; i < 2000; i++) op();
    const started = process.hrtime.bigint();
    let ops = 0;
    while (process.hrtime.bigint() - started < 2_000_000_000n) {
      for (let i = 0; i < 100; i++) op();
      ops += 100;
    }
    return Number(process.hrtime.bigint() - started) / 1e3 / ops;
  };
  const crossingUs = perCallUs(() => engine.execute(constant, Buffer.alloc(0), 'json'));
  const reshapeUs = perCallUs(() => engine.execute(reshape, body, 'json'));
  lines.push(
    `  in this process, one WASM crossing costs ${crossingUs.toFixed(1)} µs and the reshaping template in WASM ${reshapeUs.toFixed(1)} µs (bench:template-engine compares the native process)`,
  );
  return lines;
}
