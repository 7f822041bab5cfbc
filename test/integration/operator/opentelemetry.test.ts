// One `kubectl apply` as one trace, on the real control plane with real operator and gateway processes exporting to
// an OTLP receiver the test runs (test/support/otlp-receiver.ts): the operator's reconcile span (its controller,
// namespace, name and outcome), its client span for the gateway write, and the gateway's management span of that
// write, a child of the operator's client span through the traceparent the write carried.
import { beforeAll, describe, expect, it } from 'vitest';
import { installCrds } from '../../support/crds.ts';
import { startGateway, type RunningGateway } from '../../support/gateway.ts';
import { useFileNamespace } from '../../support/kubectl.ts';
import { startOperator } from '../../support/operator.ts';
import { startOtlpReceiver, type OtlpReceiver } from '../../support/otlp-receiver.ts';
import { apply, manifest, synced, waitFor } from '../../support/resources.ts';
import { waitUntil } from '../../support/wait.ts';

describe('operator tracing', () => {
  const ns = useFileNamespace('otel');
  let receiver: OtlpReceiver;
  let gw: RunningGateway;

  beforeAll(async () => {
    await installCrds();
    receiver = await startOtlpReceiver();
    gw = await startGateway({
      workers: 1,
      opentelemetry: { enabled: true, exporter: 'http', endpoint: receiver.httpUrl, span_processor_type: 'simple' },
    });
    await startOperator({
      gateway: gw,
      namespace: ns.name,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.httpUrl, OTEL_BSP_SCHEDULE_DELAY: '50' },
    });
  });

  it("shows the reconcile of an ApiDefinition and the gateway's management write in one trace", async () => {
    await apply(
      ns.name,
      manifest('ApiDefinition', 'traced', {
        name: 'traced',
        use_keyless: true,
        active: true,
        proxy: { listen_path: '/traced', target_url: 'http://127.0.0.1:9', strip_listen_path: true },
      }),
    );
    await waitFor('apidefinition', ns.name, 'traced', synced);
    const found = await waitUntil('a reconcile span whose gateway write was traced by the gateway', () => {
      for (const reconcile of receiver.spans) {
        if (reconcile.name !== 'reconcile ApiDefinition' || reconcile.attributes['k8s.object.name'] !== 'traced') continue;
        for (const call of receiver.spans) {
          if (call.parentSpanId !== reconcile.spanId || call.kind !== 3 || !/^(POST|PUT) \/gw\/apis/.test(call.name)) continue;
          const write = receiver.spans.find((span) => span.parentSpanId === call.spanId && span.kind === 2);
          if (write) return { reconcile, call, write };
        }
      }
      return undefined;
    });
    expect(found.reconcile.resource['service.name']).toBe('gw-operator');
    expect(found.reconcile.attributes).toMatchObject({ 'gw.controller': 'ApiDefinition', 'k8s.namespace.name': ns.name, 'gw.outcome': 'success' });
    expect(found.call.traceId).toBe(found.reconcile.traceId);
    expect(found.write.traceId).toBe(found.reconcile.traceId);
    expect(found.write.resource['service.name']).toBe('gw-gateway');
    expect(found.write.attributes['http.route']).toMatch(/^\/gw\/apis/);
    expect(found.write.attributes['http.status_code']).toBe(found.call.attributes['http.status_code']);
  });
});
