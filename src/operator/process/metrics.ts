// Prometheus metrics of the operator, on their own registry (served at /metrics on the metrics port):
//   gw_operator_reconciles_total{kind,outcome}        success, requeue, error, terminal
//   gw_operator_reconcile_duration_seconds{kind}      how long reconciles take
//   gw_operator_gateway_writes_total{kind,op}         creates, updates, deletes sent to gateways
//   gw_operator_drift_corrections_total{kind}         gateway copies found changed or missing and restored
//   gw_operator_queue_depth{kind}                     keys waiting to be reconciled
//   gw_operator_queue_wait_seconds{kind}              how long a key waited in the queue before a worker took it
//   gw_operator_gateway_request_duration_seconds{method,code}  management API calls to gateways ("error": no answer)
//   gw_operator_leader                                1 while this replica holds the leader Lease (or runs alone)
// the series of controller-runtime and client-go, with their names, labels and buckets, so the usual operator
// dashboards and alerts work unchanged:
//   controller_runtime_reconcile_total{controller,result}     success, error, requeue, requeue_after
//   controller_runtime_reconcile_errors_total{controller}      failed reconciles (terminal ones included)
//   controller_runtime_terminal_reconcile_errors_total{controller}
//   controller_runtime_reconcile_time_seconds{controller}
//   workqueue_{depth,adds_total,queue_duration_seconds,work_duration_seconds,unfinished_work_seconds,
//              longest_running_processor_seconds,retries_total}{name}        name = the controller's name
//   rest_client_requests_total{code,method,host}               Kubernetes API requests ("<error>": no answer)
// plus prom-client's process and Node.js metrics (memory, CPU, event-loop lag, GC).
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ReconcileOutcome } from '../../kube/controller.ts';
import type { RequestObserver } from '../../kube/client.ts';
import type { QueueHooks, WorkQueue } from '../../kube/workqueue.ts';

/** controller-runtime's reconcile_time_seconds buckets. */
const RECONCILE_TIME_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8,
  9, 10, 15, 20, 25, 30, 40, 50, 60,
];
/** client-go's workqueue duration buckets: 10^-8 s to 10 s by factors of 10. */
const WORKQUEUE_BUCKETS = Array.from({ length: 10 }, (_, i) => Number((1e-8 * 10 ** i).toPrecision(1)));
/** Our outcomes as controller-runtime's results: a requeue after a delay is requeue_after, a terminal error an error. */
const RESULT_OF: Record<ReconcileOutcome, string> = { success: 'success', requeue: 'requeue_after', error: 'error', terminal: 'error' };

/** The standard series of controller-runtime and client-go (see the top of this file). */
class ControllerRuntimeMetrics {
  readonly reconciles: Counter<'controller' | 'result'>;
  readonly errors: Counter<'controller'>;
  readonly terminalErrors: Counter<'controller'>;
  readonly reconcileTime: Histogram<'controller'>;
  readonly queueAdds: Counter<'name'>;
  readonly queueRetries: Counter<'name'>;
  readonly queueDuration: Histogram<'name'>;
  readonly workDuration: Histogram<'name'>;
  readonly restRequests: Counter<'code' | 'method' | 'host'>;
  readonly #queues = new Map<string, WorkQueue<string>>();

  constructor(registers: Registry[]) {
    const queues = this.#queues;
    this.reconciles = new Counter({
      name: 'controller_runtime_reconcile_total',
      help: 'Total number of reconciliations per controller',
      labelNames: ['controller', 'result'],
      registers,
    });
    this.errors = new Counter({
      name: 'controller_runtime_reconcile_errors_total',
      help: 'Total number of reconciliation errors per controller',
      labelNames: ['controller'],
      registers,
    });
    this.terminalErrors = new Counter({
      name: 'controller_runtime_terminal_reconcile_errors_total',
      help: 'Total number of terminal reconciliation errors per controller',
      labelNames: ['controller'],
      registers,
    });
    this.reconcileTime = new Histogram({
      name: 'controller_runtime_reconcile_time_seconds',
      help: 'Length of time per reconciliation per controller',
      labelNames: ['controller'],
      buckets: RECONCILE_TIME_BUCKETS,
      registers,
    });
    this.queueAdds = new Counter({ name: 'workqueue_adds_total', help: 'Total number of adds handled by workqueue', labelNames: ['name'], registers });
    this.queueRetries = new Counter({ name: 'workqueue_retries_total', help: 'Total number of retries handled by workqueue', labelNames: ['name'], registers });
    this.queueDuration = new Histogram({
      name: 'workqueue_queue_duration_seconds',
      help: 'How long in seconds an item stays in workqueue before being requested',
      labelNames: ['name'],
      buckets: WORKQUEUE_BUCKETS,
      registers,
    });
    this.workDuration = new Histogram({
      name: 'workqueue_work_duration_seconds',
      help: 'How long in seconds processing an item from workqueue takes.',
      labelNames: ['name'],
      buckets: WORKQUEUE_BUCKETS,
      registers,
    });
    const perQueue = (name: string, help: string, read: (queue: WorkQueue<string>) => number): void => {
      new Gauge({
        name,
        help,
        labelNames: ['name'],
        registers,
        collect() {
          for (const [queueName, queue] of queues) this.labels(queueName).set(read(queue));
        },
      });
    };
    perQueue('workqueue_depth', 'Current depth of workqueue', (queue) => queue.depth);
    perQueue(
      'workqueue_unfinished_work_seconds',
      "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
      (queue) => queue.unfinishedWork().totalSeconds,
    );
    perQueue(
      'workqueue_longest_running_processor_seconds',
      'How many seconds has the longest running processor for workqueue been running.',
      (queue) => queue.unfinishedWork().longestSeconds,
    );
    this.restRequests = new Counter({
      name: 'rest_client_requests_total',
      help: 'Number of HTTP requests, partitioned by status code, method, and host.',
      labelNames: ['code', 'method', 'host'],
      registers,
    });
  }

  /** Starts the series of one controller at zero, as controller-runtime does, so rates exist before the first event. */
  addController(name: string): void {
    for (const result of ['success', 'error', 'requeue', 'requeue_after']) this.reconciles.labels(name, result).inc(0);
    for (const counter of [this.errors, this.terminalErrors, this.queueAdds, this.queueRetries]) counter.labels(name).inc(0);
  }

  watchQueue(name: string, queue: WorkQueue<string>): void {
    this.#queues.set(name, queue);
  }
}

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
  readonly controllerRuntime: ControllerRuntimeMetrics;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry }); // process_resident_memory_bytes, nodejs_heap_*, event loop lag
    this.reconciles = new Counter({
      name: 'gw_operator_reconciles_total',
      help: 'Reconciles by kind and outcome.',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.durations = new Histogram({
      name: 'gw_operator_reconcile_duration_seconds',
      help: 'Reconcile durations.',
      labelNames: ['kind'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.writes = new Counter({
      name: 'gw_operator_gateway_writes_total',
      help: 'Writes sent to gateways or dashboards.',
      labelNames: ['kind', 'op'],
      registers,
    });
    this.driftCorrections = new Counter({
      name: 'gw_operator_drift_corrections_total',
      help: 'Gateway copies found changed or missing by the drift scan.',
      labelNames: ['kind'],
      registers,
    });
    this.queueDepth = new Gauge({ name: 'gw_operator_queue_depth', help: 'Keys waiting to be reconciled.', labelNames: ['kind'], registers });
    this.queueWait = new Histogram({
      name: 'gw_operator_queue_wait_seconds',
      help: 'Time keys waited in the work queue before a worker took them.',
      labelNames: ['kind'],
      buckets: [0.001, 0.005, 0.025, 0.1, 0.5, 1, 5, 10, 60],
      registers,
    });
    this.gatewayRequests = new Histogram({
      name: 'gw_operator_gateway_request_duration_seconds',
      help: 'Management API calls to gateways by method and status code (error: no answer).',
      labelNames: ['method', 'code'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 10],
      registers,
    });
    this.leader = new Gauge({ name: 'gw_operator_leader', help: '1 while this replica leads (holds the Lease, or runs without leader election).', registers });
    this.controllerRuntime = new ControllerRuntimeMetrics(registers);
  }

  /** For KubeClient.observeRequests: client-go's rest_client_requests_total. */
  readonly kubeRequest: RequestObserver = (method, code, host) => {
    this.controllerRuntime.restRequests.labels(code, method, host).inc();
  };

  /** The work queue hooks of controller `name`: gw_operator_queue_wait_seconds and the workqueue_* series. */
  queueHooks(name: string): QueueHooks {
    const runtime = this.controllerRuntime;
    runtime.addController(name);
    const wait = this.queueWait.labels(name);
    const queued = runtime.queueDuration.labels(name);
    const worked = runtime.workDuration.labels(name);
    const adds = runtime.queueAdds.labels(name);
    const retries = runtime.queueRetries.labels(name);
    return {
      added: () => adds.inc(),
      retried: () => retries.inc(),
      waited: (ms) => {
        wait.observe(ms / 1000);
        queued.observe(ms / 1000);
      },
      worked: (ms) => worked.observe(ms / 1000),
    };
  }

  /** Reads depth and work in flight of a controller's queue at each scrape. */
  watchQueue(name: string, queue: WorkQueue<string>): void {
    this.controllerRuntime.watchQueue(name, queue);
  }

  /** For GatewayClient: one observation per HTTP exchange. */
  readonly gatewayCall = (method: string, code: string, durationMs: number): void => {
    this.gatewayRequests.labels(method, code).observe(durationMs / 1000);
  };

  observer(kind: string): (outcome: ReconcileOutcome, durationMs: number) => void {
    const runtime = this.controllerRuntime;
    return (outcome, durationMs) => {
      this.reconciles.labels(kind, outcome).inc();
      this.durations.labels(kind).observe(durationMs / 1000);
      runtime.reconciles.labels(kind, RESULT_OF[outcome]).inc();
      runtime.reconcileTime.labels(kind).observe(durationMs / 1000);
      if (outcome === 'error' || outcome === 'terminal') runtime.errors.labels(kind).inc();
      if (outcome === 'terminal') runtime.terminalErrors.labels(kind).inc();
    };
  }
}
