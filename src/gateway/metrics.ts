// Prometheus metrics of the gateway, on their own registry (served at metrics_path on the control port):
//   gw_requests_total{api_id,code}          proxied requests by API and response status
//   gw_throttled_requests_per_second        throttled requests per second over the last 10 s (ThrottledRequestsPS)
//   gw_events_total{type}                   RateLimitExceeded, QuotaExceeded, TriggerExceeded
//   gw_apis_loaded                          APIs in the routing table
//   gw_stream_messages_total{api_id,stream} messages a stream wrote to its output (streams/stream-runtime.ts)
//   gw_stream_messages_dropped_total{api_id,stream,reason}  messages not delivered: output_unavailable (a broker
//                                           input's message the output broker did not take, dropped), publish_refused
//                                           (an HTTP publish answered 503), filtered (a bounds_check processor),
//                                           processor_error (a processor failed on it: streams/processors.ts)
//   gw_stream_subscribers_closed_total{api_id,stream,reason} subscribers the gateway disconnected (slow_subscriber)
//   gw_event_loop_delay_seconds{quantile}   how late the event loop ran timers since the last scrape (p50, p99,
//                                           max): every request waits at least this long when the loop stalls
//   gw_analytics_records_shipped_total      analytics records the dashboard accepted (licensed mode)
//   gw_analytics_records_dropped_total{reason}  analytics records lost: buffer_full (the dashboard was away longer
//                                           than the buffer lasts), refused (the dashboard refused the batch),
//                                           shutdown (still buffered when the gateway stopped)
//   gw_analytics_buffered_records           analytics records waiting to be shipped
//   gw_tracing_spans_exported_total         spans the OpenTelemetry collector accepted (opentelemetry.enabled)
//   gw_tracing_spans_dropped_total          spans lost: the export queue was full (collector down or slow) or their
//                                           export failed (../tracing/span-processor.ts)
//   gw_step_duration_seconds{step}          how long each request step of the pipeline took per request (histogram;
//                                           a step that waits, on the store or a request body, counts its wait;
//                                           the upstream step counts only sending the request: proxy/step-order.ts)
// With several workers (workers/primary.ts) a scrape sums every worker's counters and gauges (APIs loaded: once;
// event loop delay: the most delayed worker's).
// Counter children are cached per label pair so the request path never builds a label key twice; the series of APIs
// no longer loaded are dropped at each reload (retainApis), so an API churn does not grow the registry for ever.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Counter, Gauge, Registry } from 'prom-client';
import { StepDurations } from './step-durations.ts';

const WINDOW_SECONDS = 10;
/** From 10 µs (a header edit) to 5 s (a step waiting on the store or a slow client's body). */
const STEP_BUCKETS = [0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.25, 1, 5];

export class GatewayMetrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'api_id' | 'code'>;
  readonly #events: Counter<'type'>;
  readonly #apis: Gauge;
  readonly #analyticsShipped: Counter;
  readonly #analyticsDropped: Counter<'reason'>;
  #analyticsBuffered: () => number = () => 0;
  readonly #streamMessages: Counter<'api_id' | 'stream'>;
  readonly #streamDrops: Counter<'api_id' | 'stream' | 'reason'>;
  readonly #streamClosed: Counter<'api_id' | 'stream' | 'reason'>;
  readonly #children = new Map<string, ReturnType<Counter<'api_id' | 'code'>['labels']>>();
  readonly #steps = new StepDurations(STEP_BUCKETS);
  /** Throttled requests per whole second, a ring of WINDOW_SECONDS buckets. */
  readonly #throttled = new Array<number>(WINDOW_SECONDS).fill(0);
  #throttledSecond = 0;

  constructor() {
    const resolutionMs = 10;
    const loop = monitorEventLoopDelay({ resolution: resolutionMs });
    loop.enable();
    // The histogram records whole sampling intervals; the delay is what exceeds the interval.
    const late = (ns: number): number => Math.max(0, ns / 1e9 - resolutionMs / 1000);
    new Gauge({
      name: 'gw_event_loop_delay_seconds',
      help: 'Event loop delay since the last scrape (p50, p99, max); a stalled loop delays every request.',
      labelNames: ['quantile'],
      registers: [this.registry],
      aggregator: 'max', // several workers (workers/primary.ts): the most delayed one
      collect() {
        this.labels('0.5').set(late(loop.percentile(50)));
        this.labels('0.99').set(late(loop.percentile(99)));
        this.labels('1').set(late(loop.max));
        loop.reset();
      },
    });
    this.#requests = new Counter({
      name: 'gw_requests_total',
      help: 'Proxied requests by API and status code.',
      labelNames: ['api_id', 'code'],
      registers: [this.registry],
    });
    this.#events = new Counter({ name: 'gw_events_total', help: 'Gateway events by type.', labelNames: ['type'], registers: [this.registry] });
    // Every worker serves the same table: its size once, not per worker.
    this.#apis = new Gauge({ name: 'gw_apis_loaded', help: 'APIs in the routing table.', registers: [this.registry], aggregator: 'first' });
    this.#analyticsShipped = new Counter({
      name: 'gw_analytics_records_shipped_total',
      help: 'Analytics records the dashboard accepted.',
      registers: [this.registry],
    });
    this.#analyticsDropped = new Counter({
      name: 'gw_analytics_records_dropped_total',
      help: 'Analytics records lost, by reason (buffer_full, refused, shutdown).',
      labelNames: ['reason'],
      registers: [this.registry],
    });
    const buffered = (): number => this.#analyticsBuffered();
    new Gauge({
      name: 'gw_analytics_buffered_records',
      help: 'Analytics records waiting to be shipped to the dashboard.',
      registers: [this.registry],
      collect() {
        this.set(buffered());
      },
    });
    this.#streamMessages = new Counter({
      name: 'gw_stream_messages_total',
      help: 'Messages streams wrote to their output.',
      labelNames: ['api_id', 'stream'],
      registers: [this.registry],
    });
    this.#streamDrops = new Counter({
      name: 'gw_stream_messages_dropped_total',
      help: 'Stream messages dropped, by reason.',
      labelNames: ['api_id', 'stream', 'reason'],
      registers: [this.registry],
    });
    this.#streamClosed = new Counter({
      name: 'gw_stream_subscribers_closed_total',
      help: 'Stream subscribers disconnected by the gateway, by reason.',
      labelNames: ['api_id', 'stream', 'reason'],
      registers: [this.registry],
    });
    this.registry.registerMetric(this.#steps.asMetric());
    const throttledPerSecond = (now: number): number => this.throttledPerSecond(now);
    new Gauge({
      name: 'gw_throttled_requests_per_second',
      help: `Throttled requests per second, averaged over the last ${WINDOW_SECONDS} s (ThrottledRequestsPS).`,
      registers: [this.registry],
      collect() {
        this.set(throttledPerSecond(Date.now()));
      },
    });
  }

  request(apiId: string, code: number): void {
    const key = `${apiId}\u0000${code}`;
    let child = this.#children.get(key);
    if (!child) this.#children.set(key, (child = this.#requests.labels(apiId, String(code))));
    child.inc();
  }

  /** Registers the tracing counters, read from the tracer's counts at each scrape (opentelemetry.enabled only). */
  watchTracing(counts: () => { readonly exported: number; readonly dropped: number }): void {
    const counter = (name: string, help: string, read: () => number): void => {
      new Counter({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.reset();
          this.inc(read());
        },
      });
    };
    counter('gw_tracing_spans_exported_total', 'Spans the OpenTelemetry collector accepted.', () => counts().exported);
    counter('gw_tracing_spans_dropped_total', 'Spans lost: the export queue was full or their export failed.', () => counts().dropped);
  }

  /** The step's recorder in gw_step_duration_seconds, found once (when an API is compiled), not per request. */
  stepTimer(step: string): (seconds: number) => void {
    return this.#steps.timer(step);
  }

  event(type: string): void {
    this.#events.labels(type).inc();
  }

  analyticsShipped(count: number): void {
    this.#analyticsShipped.inc(count);
  }

  analyticsDropped(reason: 'buffer_full' | 'refused' | 'shutdown', count = 1): void {
    this.#analyticsDropped.labels(reason).inc(count);
  }

  /** Where the buffered-records gauge reads its value (the analytics shipper, in licensed mode). */
  analyticsBuffer(size: () => number): void {
    this.#analyticsBuffered = size;
  }

  apisLoaded(count: number): void {
    this.#apis.set(count);
  }

  /** Forgets gw_requests_total's series of every API not in `loaded` (deleted since: their ids may never come back). */
  retainApis(loaded: ReadonlySet<string>): void {
    for (const key of this.#children.keys()) {
      const [apiId, code] = key.split('\u0000') as [string, string];
      if (loaded.has(apiId)) continue;
      this.#children.delete(key);
      this.#requests.remove(apiId, code);
    }
  }

  /** gw_stream_messages_total's series of one stream, found once (when its runtime starts), not per message. */
  streamMessageCounter(apiId: string, stream: string): () => void {
    const child = this.#streamMessages.labels(apiId, stream);
    return () => child.inc();
  }

  streamDropped(apiId: string, stream: string, reason: string): void {
    this.#streamDrops.labels(apiId, stream, reason).inc();
  }

  streamSubscriberClosed(apiId: string, stream: string, reason: string): void {
    this.#streamClosed.labels(apiId, stream, reason).inc();
  }

  throttled(now: number): void {
    this.#advance(now);
    this.#throttled[this.#throttledSecond % WINDOW_SECONDS]!++;
  }

  throttledPerSecond(now: number): number {
    this.#advance(now);
    return this.#throttled.reduce((a, b) => a + b, 0) / WINDOW_SECONDS;
  }

  #advance(now: number): void {
    const second = Math.floor(now / 1000);
    if (second - this.#throttledSecond >= WINDOW_SECONDS) this.#throttled.fill(0);
    else for (let s = this.#throttledSecond + 1; s <= second; s++) this.#throttled[s % WINDOW_SECONDS] = 0;
    this.#throttledSecond = Math.max(this.#throttledSecond, second);
  }
}
