// Prometheus metrics of the admission webhook server, registered on the registry it is given (the operator's):
//   gw_operator_webhook_requests_total{webhook, allowed}        reviews answered; allowed is "true", "false", or
//                                                               "error" for requests that got no review (4xx)
//   gw_operator_webhook_request_duration_seconds{webhook}       time from the request's first byte to the answer
// `webhook` is the webhook's path without the leading slash, or "unknown".
import { Counter, Histogram, type Registry } from 'prom-client';

export type WebhookOutcome = 'true' | 'false' | 'error';

export class WebhookMetrics {
  readonly #requests: Counter<'webhook' | 'allowed'>;
  readonly #durations: Histogram<'webhook'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.#requests = new Counter({
      name: 'gw_operator_webhook_requests_total',
      help: 'Admission reviews answered by webhook and outcome (allowed true/false; error: malformed request).',
      labelNames: ['webhook', 'allowed'],
      registers,
    });
    this.#durations = new Histogram({
      name: 'gw_operator_webhook_request_duration_seconds',
      help: 'Time to answer an admission review.',
      labelNames: ['webhook'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    });
  }

  observe(webhook: string, outcome: WebhookOutcome, durationMs: number): void {
    this.#requests.labels(webhook, outcome).inc();
    this.#durations.labels(webhook).observe(durationMs / 1000);
  }
}
