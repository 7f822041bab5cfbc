// The gateway's spans (OpenTelemetry, ../../tracing/): one server span per request, named and attributed as Tyk
// Gateway names them (`<METHOD> <path>`; tyk.api.id, tyk.api.name, tyk.api.orgid, tyk.api.path: the listen path),
// answered with `X-Tyk-Trace-Id`; with the API's detailed_tracing, one child span per request step (named after
// the step); and one client span per upstream call (proxy/forward.ts), whose context goes upstream in the headers.
import type { ServerResponse } from 'node:http';
import type { Span } from '../../tracing/span.ts';
import { SpanKind } from '../../tracing/span.ts';
import { PROPAGATION_HEADERS } from '../../tracing/trace-context.ts';
import type { Tracer } from '../../tracing/tracer.ts';
import type { ProxyContext, Step } from './contract.ts';
import { contextOf, stampAnswerHeader } from './response-phase.ts';

/** Starts the request's server span, continuing the trace context the client sent. */
export function startRequestSpan(tracer: Tracer, ctx: ProxyContext): Span {
  const spec = ctx.api.spec;
  const span = tracer.startServerSpan(`${ctx.method} ${ctx.path}`, ctx.req.headers, {
    'http.method': ctx.method,
    'http.target': ctx.path,
    'tyk.api.id': spec.id,
    'tyk.api.name': spec.name,
    'tyk.api.orgid': spec.orgId,
    'tyk.api.path': ctx.api.listenPath,
  });
  if (span.recording) stampAnswerHeader(ctx.res, 'X-Tyk-Trace-Id', span.context.traceId);
  return span;
}

/** The response's 'finish' listener (one function for every response): the status, then the span ends. */
export function endRequestSpan(this: ServerResponse): void {
  const span = contextOf(this)?.span;
  if (!span) return;
  span.setAttribute('http.status_code', this.statusCode);
  if (this.statusCode >= 500) span.fail(`HTTP ${this.statusCode}`);
  span.end();
}

/** detailed_tracing: the step runs inside its own span, a child of the request's, until it answers, passes on or fails. */
export function tracedStep(step: Step, name: string, tracer: Tracer): Step {
  return (ctx) => {
    const parent = ctx.span;
    if (!parent?.recording) return step(ctx);
    const span = tracer.startChild(parent, name, SpanKind.internal);
    let outcome: boolean | Promise<boolean>;
    try {
      outcome = step(ctx);
    } catch (error) {
      failed(span, error);
      throw error;
    }
    if (outcome === true || outcome === false) {
      span.end();
      return outcome;
    }
    return outcome.then(
      (done) => {
        span.end();
        return done;
      },
      (error: unknown) => {
        failed(span, error);
        throw error;
      },
    );
  };
}

function failed(span: Span, error: unknown): void {
  span.fail(error instanceof Error ? error.message : String(error));
  span.end();
}

/** The upstream call's client span; `headers` (flat name, value pairs) lose any trace context the client sent and carry the span's. */
export function startUpstreamSpan(tracer: Tracer, ctx: ProxyContext, url: string, headers: string[]): { span: Span; headers: string[] } {
  const span = tracer.startChild(ctx.span!, `HTTP ${ctx.method}`, SpanKind.client, { 'http.method': ctx.method, 'http.url': url });
  const out: string[] = [];
  for (let i = 0; i < headers.length; i += 2) if (!PROPAGATION_HEADERS.has(headers[i]!)) out.push(headers[i]!, headers[i + 1]!);
  for (const [name, value] of tracer.headersFor(span)) out.push(name, value);
  return { span, headers: out };
}
