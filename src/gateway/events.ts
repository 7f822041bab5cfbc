// Gateway events (gw's documented RateLimitExceeded and QuotaExceeded, TriggerExceeded from quota monitors, and the
// circuit breakers' BreakerTripped / BreakerReset, each also announced as Tyk\'s older BreakerTriggered): each
// is logged, counted in metrics, and POSTed as JSON to every configured webhook that subscribes to its type.
// Delivery is fire-and-forget with a 5 s timeout and at most 100 deliveries in flight (beyond that an event is
// logged as dropped): a slow webhook never slows the proxy. Events never carry a credential, only its last
// four characters.
import type { Logger } from 'pino';
import { request } from 'undici';
import type { GatewayConfig } from './config.ts';
import type { GatewayMetrics } from './metrics.ts';

/** The event types, declared once with the configuration that subscribes webhooks to them. */
export type GatewayEventType = GatewayConfig['event_webhooks'][number]['events'][number];

export interface GatewayEvent {
  type: GatewayEventType;
  message: string;
  api_id: string;
  org_id: string;
  /** Obfuscated key ("****abcd"), or '' for keyless requests. */
  key: string;
  path: string;
  origin: string;
  timestamp: string;
  /** Extra facts of the event (throttled, usage percentage, ...). */
  meta?: Record<string, unknown>;
}

const MAX_IN_FLIGHT = 100;

export class EventBus {
  readonly #log: Logger;
  readonly #metrics: GatewayMetrics;
  readonly #webhooks: GatewayConfig['event_webhooks'];
  #inFlight = 0;

  constructor(log: Logger, metrics: GatewayMetrics, webhooks: GatewayConfig['event_webhooks']) {
    this.#log = log;
    this.#metrics = metrics;
    this.#webhooks = webhooks;
  }

  emit(event: Omit<GatewayEvent, 'timestamp'>): void {
    const full: GatewayEvent = { ...event, timestamp: new Date().toISOString() };
    this.#metrics.event(full.type);
    this.#log.warn({ event: full }, `${full.type}: ${full.message}`);
    for (const hook of this.#webhooks) {
      if (hook.events.includes(full.type)) this.#deliver(hook.url, hook.headers, full);
    }
  }

  #deliver(url: string, headers: Record<string, string>, event: GatewayEvent): void {
    if (this.#inFlight >= MAX_IN_FLIGHT) {
      this.#log.error({ webhook: url, event: event.type }, 'event webhook backlog full: event dropped');
      return;
    }
    this.#inFlight++;
    request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(event),
      headersTimeout: 5000,
      bodyTimeout: 5000,
    })
      .then(async (response) => {
        await response.body.dump();
        if (response.statusCode >= 300) this.#log.error({ webhook: url, status: response.statusCode }, 'event webhook refused the event');
      })
      .catch((error: unknown) => this.#log.error({ webhook: url, err: String(error) }, 'event webhook unreachable'))
      .finally(() => this.#inFlight--);
  }
}
