// bench/import-block: how long one large import blocks the dashboard's event loop (issue 10 item 5).
//
//   node scripts/node24.mjs node bench/import-block.ts [--paths 60000] [--yaml-operations 2000] [--json]
//
// Runs a dashboard in this process (PGlite in memory) so monitorEventLoopDelay sees its event loop, then imports
// through its HTTP API: the Swagger document with --paths paths (60 000: ~3.6 MB, over the default
// import_max_operations, so refused with 413), and an OpenAPI YAML document at the operations limit (~3.5 MB).
// Meanwhile a client calls GET /hello one after another. Per import: the answer, the loop's longest stall (max
// event-loop delay) and the slowest /hello. With the import converted inline (before issue 10) the stall was the
// whole conversion; with the import worker it is what the main thread still does (reading the body, storing).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { request } from 'undici';
import { DashboardConfigSchema } from '../src/dashboard/config.ts';
import { Dashboard } from '../src/dashboard/dashboard.ts';
import { openApiYaml, swaggerWithPaths } from '../test/support/large-documents.ts';

const { values } = parseArgs({
  options: { paths: { type: 'string', default: '60000' }, 'yaml-operations': { type: 'string', default: '2000' }, json: { type: 'boolean' } },
});
const SECRET = 'bench-import-block-secret';

const config = DashboardConfigSchema.parse({ listen_port: 0, admin_secret: SECRET, node_secret: SECRET, database_url: 'memory:', log_level: 'silent' });
const dashboard = await Dashboard.start(config, { log: pino({ level: 'silent' }) });
const base = `http://127.0.0.1:${dashboard.port}`;

async function call(method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; json: unknown }> {
  const response = await request(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.body.text();
  return { status: response.statusCode, json: text ? (JSON.parse(text) as unknown) : undefined };
}

const org = ((await call('POST', '/admin/organisations', { 'admin-auth': SECRET }, { owner_name: 'Bench' })).json as { Meta: string }).Meta;
const user = (
  await call('POST', '/admin/users', { 'admin-auth': SECRET }, { org_id: org, email_address: 'bench@example.test', user_permissions: { apis: 'write' } })
).json as { Meta: { access_key: string } };
const as = { authorization: user.Meta.access_key };

interface Outcome {
  document: string;
  bytes: number;
  status: number;
  maxLoopDelayMs: number;
  slowestHelloMs: number;
  hellosDuring: number;
}

async function measure(document: string, body: Record<string, unknown>, bytes: number): Promise<Outcome> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  let settled = false;
  const importing = call('POST', '/api/import/swagger', as, body).finally(() => (settled = true));
  let slowestHelloMs = 0;
  let hellosDuring = 0;
  while (!settled) {
    const started = performance.now();
    await call('GET', '/hello', {});
    slowestHelloMs = Math.max(slowestHelloMs, performance.now() - started);
    if (!settled) hellosDuring++;
  }
  const { status } = await importing;
  histogram.disable();
  return { document, bytes, status, maxLoopDelayMs: Math.round(histogram.max / 1e6), slowestHelloMs: Math.round(slowestHelloMs), hellosDuring };
}

const swagger = swaggerWithPaths(Number(values.paths));
const yaml = openApiYaml(Number(values['yaml-operations']), 3.5 * 1024 * 1024);
const outcomes = [
  await measure(`Swagger 2.0 JSON, ${values.paths} paths`, { swagger, upstream_url: 'http://large.internal' }, Buffer.byteLength(swagger)),
  await measure(`OpenAPI 3.0 YAML, ${values['yaml-operations']} operations`, { swagger: yaml }, Buffer.byteLength(yaml)),
];
await dashboard.close();
if (values.json) process.stdout.write(`${JSON.stringify(outcomes, null, 2)}\n`);
else {
  process.stdout.write(
    '| document | bytes | answer | max event-loop delay ms | slowest /hello ms | /hello answered during |\n| --- | --- | --- | --- | --- | --- |\n',
  );
  for (const o of outcomes)
    process.stdout.write(`| ${o.document} | ${o.bytes} | ${o.status} | ${o.maxLoopDelayMs} | ${o.slowestHelloMs} | ${o.hellosDuring} |\n`);
}
