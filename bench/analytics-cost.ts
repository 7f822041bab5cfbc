// bench/analytics-cost: the gateway's CPU per request for analytics, measured alone (bench/proxy measures the
// throughput ratio, which a loaded machine blurs): build the record of a keyed request, push it, and ship it in
// batches of 500 through JSON serialisation to a dashboard that accepts at once (no network).
//   node scripts/node24.mjs node bench/analytics-cost.ts
import { pino } from 'pino';
import { compileApi } from '../src/gateway/definition/compile.ts';
import { requestRecordJson } from '../src/gateway/analytics/request-record.ts';
import { AnalyticsShipper } from '../src/gateway/analytics/shipper.ts';
import { GatewayMetrics } from '../src/gateway/metrics.ts';

const spec = compileApi({
  id: 'shop',
  format: 'classic',
  definition: { name: 'shop', org_id: 'o', proxy: { listen_path: '/shop/', target_url: 'http://127.0.0.1:9' }, use_keyless: false, use_standard_auth: true },
});
const version = [...spec.versions.values()][0];
const key = { ok: true, storageId: 'a'.repeat(64), effective: { session: { alias: 'bench', tags: [] } } };
let serialised = 0;
// As dashboard-shipping.ts does it: records buffered as JSON text, a batch joined into one body.
const newShipper = () =>
  new AnalyticsShipper<string>(
    { max_buffered_records: 20000, batch_size: 500, flush_interval_ms: 1000, retry_initial_ms: 500, retry_max_ms: 30000 },
    async (records) => {
      serialised += `{"records":[${records.join(',')}]}`.length;
      return 'accepted';
    },
    new GatewayMetrics(),
    pino({ level: 'silent' }),
  );
const N = 200_000;
const run = async () => {
  serialised = 0;
  const shipper = newShipper();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    const ctx = { api: { spec }, version, method: 'GET', relPath: '/items/1', startedAt: Date.now(), key, upstreamLatencyMs: 1 };
    const r = requestRecordJson(ctx as never, 200, Date.now(), true);
    if (r !== undefined) shipper.record(r);
    if (i % 500 === 499) await new Promise((r) => setImmediate(r));
  }
  await shipper.close(5000);
  return Number(process.hrtime.bigint() - t0) / N;
};
await run();
console.log(
  `analytics per request (record + push + JSON of its batch share): ${(await run()).toFixed(0)} ns; JSON bytes/record ${(serialised / N).toFixed(0)}`,
);
