// The dashboard's OpenTelemetry spans, with a real dashboard process configured by the OpenTelemetry environment
// variables and an OTLP receiver the test runs (test/support/otlp-receiver.ts): a write to its API gets a server
// span continuing the caller's traceparent (as the operator's writes carry it); a read gets none.
import { beforeAll, describe, expect, it } from 'vitest';
import { startDashboard, type RunningDashboard } from '../../support/dashboard.ts';
import { startOtlpReceiver, type OtlpReceiver } from '../../support/otlp-receiver.ts';
import { waitUntil } from '../../support/wait.ts';

describe('dashboard tracing', () => {
  let receiver: OtlpReceiver;
  let dashboard: RunningDashboard;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    dashboard = await startDashboard({}, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.httpUrl, OTEL_BSP_SCHEDULE_DELAY: '20' });
  });

  it("records a write as a server span under the caller's trace context, and no span for a read", async () => {
    const readTrace = '5'.repeat(32);
    const read = await dashboard.admin('GET', '/admin/organisations', undefined, { traceparent: `00-${readTrace}-${'6'.repeat(16)}-01` });
    expect(read.status).toBe(200);
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const created = await dashboard.admin('POST', '/admin/organisations', { owner_name: 'Traced' }, { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    expect(created.status).toBe(200);
    const span = await waitUntil('the write span', () => receiver.spans.find((s) => s.traceId === traceId));
    expect(span).toMatchObject({ name: 'POST /admin/organisations', kind: 2, parentSpanId: '00f067aa0ba902b7' });
    expect(span.attributes).toMatchObject({ 'http.method': 'POST', 'http.route': '/admin/organisations', 'http.status_code': 200 });
    expect(span.resource['service.name']).toBe('gw-dashboard');
    // Spans are exported in the order they ended: the read came first and would be in by now.
    expect(receiver.spans.some((s) => s.traceId === readTrace)).toBe(false);
  });
});
