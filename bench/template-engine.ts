// The cost of one body transform's crossing into the template engine (WebAssembly, in-process): execute() of a
// small template over a 1 KiB JSON body, per operation, against a plain JSON.parse + JSON.stringify of the same
// body in the same run as the baseline, the same through the executor's worker thread (the WebAssembly fallback,
// so a template can be stopped at its time limit), and round trips to the native engine process (what the gateway
// uses when it is built; wall time, so on a 2-core machine the engine's own CPU overlaps the caller's). Prints µs/op
// and ratios. Needs the built engine (npm run build:template-engine, or GW_TEMPLATE_ENGINE).
//
//   npm run bench:template-engine            GW_BENCH_SECONDS (default 3) per measurement
import { TemplateEngine } from '../src/gateway/template/engine.ts';
import { locateTemplateEngine } from '../src/gateway/template/artefact.ts';
import { TemplateExecutor } from '../src/gateway/template/executor.ts';
import { locateNativeTemplateEngine } from '../src/gateway/template/artefact.ts';
import { NativeTemplateExecutor } from '../src/gateway/template/native-executor.ts';
import { body1KiB, RESHAPE_TEMPLATE } from './json-body.ts';

const seconds = Number(process.env.GW_BENCH_SECONDS ?? 3);

async function measureAsync(name: string, op: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 500; i++) await op();
  let ops = 0;
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(seconds * 1e9);
  while (process.hrtime.bigint() < deadline) {
    for (let i = 0; i < 20; i++) await op();
    ops += 20;
  }
  const perOp = Number(process.hrtime.bigint() - started) / 1e3 / ops;
  console.log(`${name.padEnd(58)} ${perOp.toFixed(2).padStart(8)} µs/op  (${ops} ops)`);
  return perOp;
}

function measure(name: string, op: () => unknown): number {
  for (let i = 0; i < 2_000; i++) op(); // warm-up
  let ops = 0;
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(seconds * 1e9);
  while (process.hrtime.bigint() < deadline) {
    for (let i = 0; i < 100; i++) op();
    ops += 100;
  }
  const perOp = Number(process.hrtime.bigint() - started) / 1e3 / ops;
  console.log(`${name.padEnd(58)} ${perOp.toFixed(2).padStart(8)} µs/op  (${ops} ops)`);
  return perOp;
}

const body = body1KiB();
const engine = TemplateEngine.load(locateTemplateEngine());
const passThrough = engine.compile('bench', '{{. | jsonMarshal}}');
const reshape = engine.compile('bench', '{"customer":{{.customer | jsonMarshal}},"ids":[{{range $i, $e := .items}}{{if $i}},{{end}}{{$e.id}}{{end}}]}');
const extra = Buffer.from(JSON.stringify({ _gw_meta: { tier: 'gold' }, _gw_context: { request_id: 'r', path_parts: ['', 'a'] } }));
console.log(`body: ${body.length} bytes JSON; engine: ${locateTemplateEngine()}`);
const baseline = measure('baseline: JSON.parse + JSON.stringify', () => JSON.stringify(JSON.parse(body.toString('utf8'))));
const empty = engine.compile('bench', 'x');
const crossing = measure('execute, constant template over an empty body (crossing)', () => engine.execute(empty, Buffer.alloc(0), 'json'));
const marshal = measure('execute {{. | jsonMarshal}} over the body', () => engine.execute(passThrough, body, 'json'));
const reshaped = measure('execute a reshaping range template + _gw_meta/_gw_context', () => engine.execute(reshape, body, 'json', extra));
const executor = new TemplateExecutor(locateTemplateEngine());
const workerCrossing = await measureAsync('executor (worker thread), constant template, empty body', () =>
  executor.execute(empty, Buffer.alloc(0), 'json', undefined, 1000),
);
const workerReshape = await measureAsync('executor (worker thread), reshaping template over the body', () =>
  executor.execute(reshape, body, 'json', extra, 1000),
);
await executor.close();
console.log(`worker thread adds ${(workerCrossing - crossing).toFixed(1)} µs per execution (reshape: ${(workerReshape - reshaped).toFixed(1)} µs)`);
const nativePath = locateNativeTemplateEngine();
if (nativePath) {
  const native = new NativeTemplateExecutor(nativePath);
  const nativeCrossing = await measureAsync('native process, constant template, empty body (round trip)', () =>
    native.execute(empty, Buffer.alloc(0), 'json', undefined, 1000),
  );
  await measureAsync('native process, {{. | jsonMarshal}} over the body', () => native.execute(passThrough, body, 'json', undefined, 1000));
  const nativeReshape = await measureAsync('native process, reshaping template over the body', () => native.execute(reshape, body, 'json', extra, 1000));
  const proxyReshape = engine.compile('bench', RESHAPE_TEMPLATE);
  measure("in-process WASM, bench/proxy's reshaping template", () => engine.execute(proxyReshape, body, 'json'));
  await measureAsync("native process, bench/proxy's reshaping template", () => native.execute(proxyReshape, body, 'json', undefined, 1000));
  await native.close();
  console.log(
    `native process: round trip ${nativeCrossing.toFixed(1)} µs, reshape ${nativeReshape.toFixed(1)} µs (in-process WASM ${reshaped.toFixed(1)} µs, worker ${workerReshape.toFixed(1)} µs)`,
  );
}
console.log(
  `ratios to baseline: crossing ${(crossing / baseline).toFixed(1)}×, jsonMarshal ${(marshal / baseline).toFixed(1)}×, reshape ${(reshaped / baseline).toFixed(1)}×`,
);
