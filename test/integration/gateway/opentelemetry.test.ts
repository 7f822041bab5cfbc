// OpenTelemetry tracing through real gateway processes, a real upstream and an OTLP receiver the test runs
// (test/support/otlp-receiver.ts decodes the protobuf exports): the server span per request with Tyk's name and
// attributes, the client span of the upstream call and the `traceparent` the upstream saw, an incoming trace
// context continued, detailed_tracing's span per pipeline step, OTLP/gRPC export, sampling (AlwaysOff with
// parent_based: only traces the caller sampled), and a collector refusing exports: requests still answered, the
// spans counted in gw_tracing_spans_dropped_total.
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, http, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../support/otlp-receiver.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

const SERVER = 2;
const CLIENT = 3;
const INTERNAL = 1;

describe('OpenTelemetry tracing', () => {
  let receiver: OtlpReceiver;
  let upstream: Upstream;
  let gw: RunningGateway;
  let refuseExports = false;

  /**
   * The spans of one trace, once its server span has arrived: it ends last (with the response), and spans are
   * exported in the order they ended, one export at a time, so every other span of the trace is in by then.
   */
  const trace = (traceId: string): Promise<ReceivedSpan[]> =>
    waitUntil(`the server span of trace ${traceId}`, () => {
      const spans = receiver.spans.filter((span) => span.traceId === traceId);
      return spans.some((span) => span.kind === SERVER) && spans;
    });

  beforeAll(async () => {
    receiver = await startOtlpReceiver(() => (refuseExports ? 503 : 200));
    upstream = await startUpstream();
    gw = await startGateway(
      {
        workers: 1,
        opentelemetry: {
          enabled: true,
          exporter: 'http',
          endpoint: receiver.httpUrl,
          headers: { 'x-collector-key': 'k1' },
          span_batch_config: { batch_timeout: 0.05 },
        },
      },
      {
        apps: {
          'plain.json': classicApi('plain-api', '/plain', upstream.url, { name: 'Plain API', org_id: 'org1', use_keyless: true }),
          'detailed.json': classicApi('detailed-api', '/detailed', upstream.url, { detailed_tracing: true }),
        },
      },
    );
  });

  it('records a server span per request and a client span for the upstream call, whose context the upstream receives', async () => {
    const answer = await gw.call('/plain/things?x=1');
    expect(answer.status).toBe(200);
    const traceId = answer.headers['x-tyk-trace-id'] as string;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    const spans = await trace(traceId);
    const server = spans.find((span) => span.kind === SERVER)!;
    const client = spans.find((span) => span.kind === CLIENT)!;
    expect(server.name).toBe('GET /plain/things');
    expect(server.parentSpanId).toBe('');
    expect(server.attributes).toMatchObject({
      'http.method': 'GET',
      'http.status_code': 200,
      'tyk.api.id': 'plain-api',
      'tyk.api.name': 'Plain API',
      'tyk.api.orgid': 'org1',
      'tyk.api.path': '/plain',
    });
    expect(server.resource['service.name']).toBe('gw-gateway');
    expect(client.parentSpanId).toBe(server.spanId);
    expect(client.attributes['http.status_code']).toBe(200);
    expect(client.startNs >= server.startNs && client.endNs <= server.endNs).toBe(true);
    expect(spans.filter((span) => span.kind === INTERNAL)).toEqual([]); // no detailed_tracing: no step spans
    expect(upstream.requests.at(-1)!.headers.traceparent).toBe(`00-${traceId}-${client.spanId}-01`);
    expect(receiver.lastHeaders['x-collector-key']).toBe('k1');
  });

  it("continues the client's trace context and replaces its traceparent upstream", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const answer = await gw.call('/plain/continued', { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    expect(answer.headers['x-tyk-trace-id']).toBe(traceId);
    const spans = await trace(traceId);
    const server = spans.find((span) => span.kind === SERVER)!;
    const client = spans.find((span) => span.kind === CLIENT)!;
    expect(server.parentSpanId).toBe('00f067aa0ba902b7');
    expect(upstream.requests.at(-1)!.headers.traceparent).toBe(`00-${traceId}-${client.spanId}-01`);
  });

  it('with detailed_tracing, adds a span per pipeline step under the request span', async () => {
    const key = await addKey(gw, ['detailed-api']);
    const answer = await gw.call('/detailed/x', { headers: { Authorization: key } });
    expect(answer.status).toBe(200);
    const spans = await trace(answer.headers['x-tyk-trace-id'] as string);
    const server = spans.find((span) => span.kind === SERVER)!;
    const steps = spans.filter((span) => span.kind === INTERNAL);
    expect(steps.map((span) => span.name)).toEqual(expect.arrayContaining(['version', 'auth-token', 'upstream']));
    for (const step of steps) expect(step.parentSpanId).toBe(server.spanId);
    expect(server.attributes['tyk.api.id']).toBe('detailed-api');
  });

  it('marks a refused request on its span: status code and no upstream call', async () => {
    const answer = await gw.call('/detailed/x', { headers: { Authorization: 'unknown-key' } });
    expect(answer.status).toBe(403);
    const spans = await trace(answer.headers['x-tyk-trace-id'] as string);
    const server = spans.find((span) => span.kind === SERVER)!;
    expect(server.attributes['http.status_code']).toBe(403);
    expect(spans.map((span) => span.name)).toContain('auth-token');
    expect(spans.some((span) => span.kind === CLIENT || span.name === 'upstream')).toBe(false);
  });

  it('exports over OTLP/gRPC; AlwaysOff with parent_based records only the traces a caller sampled', async () => {
    const grpcGw = await startGateway(
      {
        workers: 1,
        opentelemetry: {
          enabled: true,
          exporter: 'grpc',
          endpoint: receiver.grpcEndpoint,
          span_processor_type: 'simple',
          resource_name: 'edge',
          sampling: { type: 'AlwaysOff', parent_based: true },
        },
      },
      { apps: { 'plain.json': classicApi('plain-api', '/plain', upstream.url, { use_keyless: true }) } },
    );
    const unsampledTrace = '11111111111111111111111111111111';
    const unsampled = await grpcGw.call('/plain/a', { headers: { traceparent: `00-${unsampledTrace}-1111111111111111-00` } });
    expect(unsampled.status).toBe(200);
    expect(unsampled.headers['x-tyk-trace-id']).toBeUndefined();
    // Not recorded, still propagated: the upstream sees the trace with the sampled flag off.
    expect(upstream.requests.at(-1)!.headers.traceparent).toMatch(new RegExp(`^00-${unsampledTrace}-[0-9a-f]{16}-00$`));
    const fresh = await grpcGw.call('/plain/b'); // no caller: AlwaysOff decides
    const freshTrace = (upstream.requests.at(-1)!.headers.traceparent as string).split('-')[1]!;
    expect(fresh.headers['x-tyk-trace-id']).toBeUndefined();
    const sampledTrace = '22222222222222222222222222222222';
    await grpcGw.call('/plain/c', { headers: { traceparent: `00-${sampledTrace}-2222222222222222-01` } });
    const spans = await trace(sampledTrace);
    expect(spans[0]!.resource['service.name']).toBe('edge');
    // Exports leave in the order spans ended, one at a time: the earlier requests' spans would have arrived first.
    expect(receiver.spans.filter((span) => span.traceId === unsampledTrace || span.traceId === freshTrace)).toEqual([]);
    await grpcGw.stop();
  });

  it('drops spans (counted) when the collector refuses them, and answers every request all the same', async () => {
    refuseExports = true;
    try {
      const answer = await gw.call('/plain/while-down');
      expect(answer.status).toBe(200);
      await waitUntil('dropped spans counted', async () => {
        const metrics = await http(`${gw.controlUrl}/metrics`);
        const dropped = /^gw_tracing_spans_dropped_total (\d+)/m.exec(metrics.text);
        return dropped !== null && Number(dropped[1]) >= 2;
      });
      expect(receiver.spans.some((span) => span.traceId === answer.headers['x-tyk-trace-id'])).toBe(false);
    } finally {
      refuseExports = false;
    }
  });
});
