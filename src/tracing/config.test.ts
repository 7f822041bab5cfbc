// The OpenTelemetry environment variables read by the operator and the dashboard (config.ts tracingConfigFromEnv),
// and the gateway's defaults (Tyk's, except resource_name).
import { describe, expect, it } from 'vitest';
import { TracingConfigSchema, tracingConfigFromEnv } from './config.ts';

describe('tracing configuration', () => {
  it("has Tyk's defaults, resource_name gw-gateway", () => {
    expect(TracingConfigSchema.parse(undefined)).toMatchObject({
      enabled: false,
      exporter: 'grpc',
      endpoint: 'localhost:4317',
      connection_timeout: 1,
      resource_name: 'gw-gateway',
      span_processor_type: 'batch',
      span_batch_config: { max_queue_size: 2048, max_export_batch_size: 512, batch_timeout: 5 },
      context_propagation: 'tracecontext',
      sampling: { type: 'AlwaysOn', rate: 0.5, parent_based: false },
    });
  });

  it('is off without an OTLP endpoint in the environment', () => {
    expect(tracingConfigFromEnv({}, 'gw-operator').enabled).toBe(false);
    expect(tracingConfigFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }, 'gw-operator').enabled).toBe(false);
  });

  it('maps the standard variables', () => {
    const config = tracingConfigFromEnv(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
        OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%20b,x=y',
        OTEL_EXPORTER_OTLP_TIMEOUT: '2500',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.1',
        OTEL_PROPAGATORS: 'b3',
        OTEL_BSP_SCHEDULE_DELAY: '100',
        OTEL_BSP_MAX_QUEUE_SIZE: '64',
      },
      'gw-operator',
    );
    expect(config).toMatchObject({
      enabled: true,
      exporter: 'http',
      endpoint: 'http://collector:4318/v1/traces',
      headers: { 'api-key': 'a b', x: 'y' },
      connection_timeout: 2.5,
      resource_name: 'gw-operator',
      context_propagation: 'b3',
      span_batch_config: { batch_timeout: 0.1, max_queue_size: 64, max_export_batch_size: 512 },
      sampling: { type: 'TraceIDRatioBased', rate: 0.1, parent_based: true },
    });
    expect(tracingConfigFromEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c/x', OTEL_SERVICE_NAME: 'ops' }, 'gw-operator')).toMatchObject({
      endpoint: 'http://c/x',
      resource_name: 'ops',
    });
    expect(tracingConfigFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'x')).toMatchObject({
      exporter: 'grpc',
      endpoint: 'c:4317',
    });
  });
});
