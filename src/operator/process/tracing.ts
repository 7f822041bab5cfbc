// The operator's OpenTelemetry spans (../../tracing/), on when OTEL_EXPORTER_OTLP_ENDPOINT is set (config.ts
// tracingConfigFromEnv): one span per reconcile (`reconcile <controller>`, with the object's namespace and name and
// the outcome: success, requeue, error, terminal) and, under it, one client span per call to a gateway or dashboard
// management API, whose trace context goes in that call's headers — so one `kubectl apply` shows as the operator's
// reconcile and the gateway's management write (tracing/http-writes.ts) in one trace.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { CallTrace } from '../../mgmt/http.ts';
import { TerminalError, type Reconciler } from '../../kube/controller.ts';
import { SpanKind, type Span } from '../../tracing/span.ts';
import type { Tracer } from '../../tracing/tracer.ts';

const current = new AsyncLocalStorage<Span>();

/** `reconciler` with a span around each of its runs; calls it makes see that span (managementCallTrace). */
export function tracedReconciler(tracer: Tracer, controller: string, reconciler: Reconciler): Reconciler {
  return {
    reconcile: (key, signal) => {
      const slash = key.indexOf('/');
      const span = tracer.startSpan(`reconcile ${controller}`, SpanKind.internal, {
        'gw.controller': controller,
        'k8s.namespace.name': slash >= 0 ? key.slice(0, slash) : '',
        'k8s.object.name': slash >= 0 ? key.slice(slash + 1) : key,
      });
      return current.run(span, async () => {
        try {
          const result = await reconciler.reconcile(key, signal);
          span.setAttribute('gw.outcome', result?.requeueAfterMs !== undefined && result.requeueAfterMs > 0 ? 'requeue' : 'success');
          return result;
        } catch (error) {
          span.setAttribute('gw.outcome', error instanceof TerminalError ? 'terminal' : 'error');
          span.fail(error instanceof Error ? error.message : String(error));
          throw error;
        } finally {
          span.end();
        }
      });
    },
  };
}

/** The management clients' `trace` hook: a client span under the running reconcile's span (none outside one). */
export function managementCallTrace(tracer: Tracer): (method: string, path: string) => CallTrace | undefined {
  return (method, path) => {
    const parent = current.getStore();
    if (!parent) return undefined;
    const span = tracer.startChild(parent, `${method} ${path}`, SpanKind.client, { 'http.method': method, 'http.target': path });
    return {
      headers: Object.fromEntries(tracer.headersFor(span)),
      end: (code) => {
        if (code === 'error') span.fail('no answer');
        else span.setAttribute('http.status_code', Number(code));
        span.end();
      },
    };
  };
}
