// Tracing's configuration, in Tyk Gateway 5.x's `opentelemetry` names and defaults (its flat form), except
// resource_name: "gw-gateway" (Tyk's "tyk-gateway"). The gateway reads it under `opentelemetry` in its config file;
// the operator and the dashboard read the OpenTelemetry standard environment variables instead
// (tracingConfigFromEnv), mapped onto the same shape.
import { z } from 'zod';

export const TracingConfigSchema = z
  .object({
    enabled: z.boolean().default(false).describe('Export OpenTelemetry traces (OTLP).'),
    exporter: z.enum(['grpc', 'http']).default('grpc').describe('OTLP transport: `grpc` (HTTP/2, port 4317) or `http` (protobuf over HTTP/1.1, port 4318).'),
    endpoint: z
      .string()
      .default('localhost:4317')
      .describe('Collector address, `host:port` or a URL (`https://` for TLS); for `http`, `/v1/traces` is added when the URL has no path.'),
    headers: z.record(z.string(), z.string()).default({}).describe('Headers sent with every export (e.g. an API key of the collector).'),
    connection_timeout: z.number().positive().default(1).describe('Seconds an export may take before it is given up (its spans counted as dropped).'),
    resource_name: z.string().min(1).default('gw-gateway').describe('The `service.name` of the exported spans.'),
    span_processor_type: z
      .enum(['batch', 'simple'])
      .default('batch')
      .describe('`batch`: export in batches (span_batch_config); `simple`: each span as it ends.'),
    span_batch_config: z
      .object({
        max_queue_size: z.int().min(1).max(1_000_000).default(2048).describe('Spans kept waiting for export; more are dropped (counted), never queued.'),
        max_export_batch_size: z.int().min(1).default(512).describe('Spans sent in one export at most.'),
        batch_timeout: z.number().positive().default(5).describe('Seconds between two exports of a queue that is not full.'),
      })
      .prefault({}),
    context_propagation: z
      .enum(['tracecontext', 'b3'])
      .default('tracecontext')
      .describe('Trace context read from requests and sent upstream: W3C `traceparent` or B3.'),
    sampling: z
      .object({
        type: z.enum(['AlwaysOn', 'AlwaysOff', 'TraceIDRatioBased']).default('AlwaysOn').describe('Which traces are recorded.'),
        rate: z.number().min(0).max(1).default(0.5).describe('TraceIDRatioBased: the share of traces recorded.'),
        parent_based: z.boolean().default(false).describe("Follow the caller's sampled flag when a request carries a trace context."),
      })
      .prefault({}),
  })
  .prefault({});

export type TracingConfig = z.infer<typeof TracingConfigSchema>;

/**
 * The OpenTelemetry SDK environment variables, for the operator and the dashboard: OTEL_EXPORTER_OTLP_ENDPOINT
 * (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) enables tracing; OTEL_EXPORTER_OTLP_PROTOCOL `grpc` or `http/protobuf`
 * (default http/protobuf, the SDKs' default); OTEL_EXPORTER_OTLP_HEADERS `k=v,k2=v2`; OTEL_EXPORTER_OTLP_TIMEOUT
 * (milliseconds); OTEL_SERVICE_NAME; OTEL_TRACES_SAMPLER (always_on, always_off, traceidratio and their parentbased_
 * forms) with OTEL_TRACES_SAMPLER_ARG; OTEL_PROPAGATORS (tracecontext or b3); OTEL_BSP_SCHEDULE_DELAY (ms),
 * OTEL_BSP_MAX_QUEUE_SIZE, OTEL_BSP_MAX_EXPORT_BATCH_SIZE; OTEL_SDK_DISABLED=true turns it off.
 */
export function tracingConfigFromEnv(env: NodeJS.ProcessEnv, serviceName: string): TracingConfig {
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const endpoint = tracesEndpoint ?? env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
  const exporter = protocol === 'grpc' ? 'grpc' : 'http';
  const sampler = (env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on').toLowerCase();
  const base = sampler.replace(/^parentbased_/, '');
  const rate = Number(env.OTEL_TRACES_SAMPLER_ARG ?? '1');
  const timeoutMs = Number(env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ?? env.OTEL_EXPORTER_OTLP_TIMEOUT ?? '10000');
  // The signal-specific endpoint is used as is; the generic one gets /v1/traces (the SDKs' rule).
  const url = endpoint && exporter === 'http' && !tracesEndpoint ? `${endpoint.replace(/\/+$/, '')}/v1/traces` : endpoint;
  const positive = (name: string, scale = 1): number | undefined => {
    const value = Number(env[name] ?? 'NaN');
    return Number.isFinite(value) && value > 0 ? value * scale : undefined;
  };
  const batch = {
    batch_timeout: positive('OTEL_BSP_SCHEDULE_DELAY', 1 / 1000),
    max_queue_size: positive('OTEL_BSP_MAX_QUEUE_SIZE'),
    max_export_batch_size: positive('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
  };
  return TracingConfigSchema.parse({
    enabled: endpoint !== undefined && endpoint !== '' && env.OTEL_SDK_DISABLED !== 'true',
    exporter,
    ...(url ? { endpoint: url } : {}),
    headers: parseHeaderList(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS ?? env.OTEL_EXPORTER_OTLP_HEADERS ?? ''),
    ...(Number.isFinite(timeoutMs) && timeoutMs > 0 ? { connection_timeout: timeoutMs / 1000 } : {}),
    resource_name: env.OTEL_SERVICE_NAME || serviceName,
    span_batch_config: Object.fromEntries(Object.entries(batch).filter(([, value]) => value !== undefined)),
    context_propagation: (env.OTEL_PROPAGATORS ?? '').split(',').includes('b3') ? 'b3' : 'tracecontext',
    sampling: {
      type: base === 'always_off' ? 'AlwaysOff' : base === 'traceidratio' ? 'TraceIDRatioBased' : 'AlwaysOn',
      rate: Number.isFinite(rate) && rate >= 0 && rate <= 1 ? rate : 1,
      parent_based: sampler.startsWith('parentbased_'),
    },
  });
}

/** `k=v,k2=v2` with percent-encoded values (the OTEL_EXPORTER_OTLP_HEADERS format). */
function parseHeaderList(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    try {
      headers[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      headers[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
    }
  }
  return headers;
}
