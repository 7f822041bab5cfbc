// Prometheus metrics of the operator, on their own registry (served at /metrics on the metrics port):
//   gw_operator_reconciles_total{kind,outcome}        success, requeue, error, terminal
//   gw_operator_reconcile_duration_seconds{kind}      how long reconciles take
//   gw_operator_gateway_writes_total{kind,op}         creates, updates, deletes sent to gateways
//   gw_operator_drift_corrections_total{kind}         gateway copies found changed or missing and restored
//   gw_operator_queue_depth{kind}                     keys waiting to be reconciled
//   gw_operator_queue_wait_seconds{kind}              how long a key waited in the queue before a worker took it
//   gw_operator_gateway_request_duration_seconds{method,code}  management API calls to gateways ("error": no answer)
//   gw_operator_leader                                1 while this replica holds the leader Lease (or runs alone)
// plus prom-client's process and Node.js metrics (memory, CPU, event-loop lag, GC).
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ReconcileOutcome } from '../kube/controller.ts';

export class OperatorMetrics {
  readonly registry = new Registry();
  readonly reconciles: Counter<'kind' | 'outcome'>;
  readonly durations: Histogram<'kind'>;
  readonly writes: Counter<'kind' | 'op'>;
  readonly driftCorrections: Counter<'kind'>;
  readonly queueDepth: Gauge<'kind'>;
  readonly queueWait: Histogram<'kind'>;
  readonly gatewayRequests: Histogram<'method' | 'code'>;
  readonly leader: Gauge;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry }); // process_resident_memory_bytes, nodejs_heap_*, event loop lag
    this.reconciles = new Counter({ name: 'gw_operator_reconciles_total', help: 'Reconciles by kind and outcome.', labelNames: ['kind', 'outcome'], registers });
    this.durations = new Histogram({ name: 'gw_operator_reconcile_duration_seconds', help: 'Reconcile durations.', labelNames: ['kind'], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers });
    this.writes = new Counter({ name: 'gw_operator_gateway_writes_total', help: 'Writes sent to gateways or dashboards.', labelNames: ['kind', 'op'], registers });
    this.driftCorrections = new Counter({ name: 'gw_operator_drift_corrections_total', help: 'Gateway copies found changed or missing by the drift scan.', labelNames: ['kind'], registers });
    this.queueDepth = new Gauge({ name: 'gw_operator_queue_depth', help: 'Keys waiting to be reconciled.', labelNames: ['kind'], registers });
    this.queueWait = new Histogram({ name: 'gw_operator_queue_wait_seconds', help: 'Time keys waited in the work queue before a worker took them.', labelNames: ['kind'], buckets: [0.001, 0.005, 0.025, 0.1, 0.5, 1, 5, 10, 60], registers });
    this.gatewayRequests = new Histogram({ name: 'gw_operator_gateway_request_duration_seconds', help: 'Management API calls to gateways by method and status code (error: no answer).', labelNames: ['method', 'code'], buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 10], registers });
    this.leader = new Gauge({ name: 'gw_operator_leader', help: '1 while this replica leads (holds the Lease, or runs without leader election).', registers });
  }

  /** For GatewayClient: one observation per HTTP exchange. */
  readonly gatewayCall = (method: string, code: string, durationMs: number): void => {
    this.gatewayRequests.labels(method, code).observe(durationMs / 1000);
  };

  queueWaitObserver(kind: string): (ms: number) => void {
    const child = this.queueWait.labels(kind);
    return (ms) => child.observe(ms / 1000);
  }

  observer(kind: string): (outcome: ReconcileOutcome, durationMs: number) => void {
    return (outcome, durationMs) => {
      this.reconciles.labels(kind, outcome).inc();
      this.durations.labels(kind).observe(durationMs / 1000);
    };
  }
}
