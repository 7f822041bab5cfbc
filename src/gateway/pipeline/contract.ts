// The pipeline's contract, shared by the proxy (which runs it) and the middleware (which implements its steps):
// what one request carries (ProxyContext), what a request step and a response step are, and what a compiled API
// holds. Types only, no behaviour; this directory sits below proxy/ and middleware/ and never imports either.
//
// Two phases (docs/architecture.md §3). Request steps run in order until one answers. Whatever answers — the upstream, a
// mock, an error — goes through the API's response steps before its head is written (response-phase.ts), so a
// response header is set in one place for every kind of answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApiSpec } from '../definition/api-spec.ts';
import type { BodyTransformRule, VersionSpec } from '../definition/version-spec.ts';
import type { EffectiveAccess } from '../session/apply-policies.ts';
import type { ResolvedKey } from '../session/session-cache.ts';
import type { Logger } from 'pino';
import type { BodyCapture } from './body-capture.ts';
import type { Span } from '../../tracing/span.ts';

export interface RateLimitHeaders {
  limit: number;
  remaining: number;
  /** Unix seconds. */
  reset: number;
}

/**
 * What one proxied request carries through both phases. Created once per request by the handler; each step reads
 * what earlier steps decided and adds its own decision. Steps never re-derive what is already here.
 */
export interface ProxyContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly api: CompiledApi;
  readonly method: string;
  /** Normalised request path (see proxy/request-path.ts); version stripping may shorten it. */
  path: string;
  /** `path` relative to the listen path, always starting with '/'. */
  relPath: string;
  /** Raw query string including '?', or ''. */
  query: string;
  version?: VersionSpec;
  /** An OAS base API handed the request to this (version's) API: no second hand-off (middleware/routing/version-routing.ts). */
  handedOff?: true;
  /** The endpoint is in `ignored`: no authentication, rate limit or quota. */
  ignored: boolean;
  /** The credential as sent (never logged). */
  token?: string;
  key?: ResolvedKey;
  access?: EffectiveAccess;
  /** Context variables set by earlier steps for later ones (JWT claims as `jwt_claims_<name>`). */
  variables?: Record<string, unknown>;
  /**
   * The request's context variables (middleware/transforms/context-variables.ts plus `variables`), built once, when a step
   * first needs them (middleware/transforms/render-variables.ts requestContext), so every step sees the same request_id.
   */
  contextVariables?: Record<string, unknown>;
  /** The response body transform this request's endpoint matched, found once in the request phase. */
  responseBodyTransform?: BodyTransformRule;
  /** Set by the key limits step; reported by its response step. */
  rateLimitHeaders?: RateLimitHeaders;
  /**
   * The client sent `Expect: 100-continue` and has not been told to send its body yet: the step that first needs
   * the body sends `100 Continue` (response-phase.ts continueBody). A request answered before that (401, 403, a
   * mock) is refused without its body ever being read.
   */
  continuePending: boolean;
  /**
   * The request body in memory, once a step had to read it (credentials from the body: request-body.ts) or rewrote
   * it (a body transform): the upstream receives these bytes, with their Content-Length, instead of the client's
   * stream, which is then spent. Undefined: the client's body streams through untouched.
   */
  body?: Buffer;
  /**
   * Set by a URL rewrite: the path (and query, from '?') the upstream receives, under the target URL's base path,
   * instead of the request's. Endpoint rules keep matching the request's own path.
   */
  upstreamPath?: string;
  /**
   * Set by a URL rewrite whose target is Tyk's `tyk://` looping URL: instead of the upstream, the request runs again
   * through that API's pipeline (../looping/loop-step.ts).
   */
  loopUrl?: string;
  /** The request came in by internal looping (../looping/): how deep, its limit, whether limits apply. */
  loop?: LoopState;
  /**
   * The request asked to switch protocols (a WebSocket upgrade, the server's 'upgrade' event): its socket and the
   * bytes already read past the head. A step that accepts the upgrade takes it over (a GraphQL tunnel, a stream's
   * WebSocket subscribers); every other answer is written to `res` as usual, and the socket closes after it.
   */
  upgrade?: { socket: Duplex; head: Buffer };
  /** Set by the response cache on a miss: takes a copy of the upstream's answer (response-phase.ts beginResponse). */
  responseCapture?: ResponseCapture;
  readonly startedAt: number;
  /** Milliseconds from dispatching to the upstream to its response head (proxy/forward.ts); unset when not called. */
  upstreamLatencyMs?: number;
  /** Detailed analytics recording of this request: its bodies' first bytes (body-capture.ts). */
  capture?: BodyCapture;
  /** The request's server span, when tracing is on (../../tracing/); ended when the response is sent. */
  span?: Span;
}

/** An internally looped request's state, carried from loop to loop (Tyk's loop level, loop_limit, check_limits). */
export interface LoopState {
  /** Loops made so far (1 on the first looped run). */
  depth: number;
  limit: number;
  /** A loop_limit was given (the first one sticks for the rest of the request). */
  limitGiven: boolean;
  /** check_limits=true: rate limits and quotas apply to the looped request (by default they do not). */
  checkLimits: boolean;
  /**
   * UDG data source calls made so far for the client's request, one counter shared by every internal request it
   * leads to (graphql/udg-executor.ts): graphql.udg_max_data_source_calls bounds the whole tree, not each level.
   */
  udgCalls?: { made: number };
}

/**
 * A copy of the upstream's answer as it arrives, before any response step edits it (the response cache stores it
 * and replays it through the same response phase). Reported to by the response phase only.
 */
export interface ResponseCapture {
  /** The upstream's head, untouched (copy what is kept: steps edit it next); false: not this answer, nothing more is reported. */
  start(head: Readonly<ResponseHead>): boolean;
  chunk(chunk: Buffer): void;
  /** The whole body went to the client; never called for an answer cut short. */
  end(): void;
}

/**
 * A request step: `true` when it answered (the pipeline stops), else `false`; a promise of either when it must
 * wait. A step that can decide from memory returns synchronously, so a request never waits on a microtask it does
 * not need. Steps are built once per API at compile time: no per-request closures.
 */
export type Step = (ctx: ProxyContext) => boolean | Promise<boolean>;

/** Records how long one run of a step took, in seconds (from its call until it answered, passed on or failed). */
export type StepTimer = (seconds: number) => void;

/** The head of an answer, as response steps see and edit it before it is written. */
export interface ResponseHead {
  status: number;
  /** Lower-case names. Response steps add, replace or delete entries. */
  headers: Record<string, string | string[] | number | undefined>;
  /** Who answered: the upstream, a configured mock, or the gateway refusing or failing the request. */
  readonly origin: 'upstream' | 'mock' | 'error';
}

/**
 * A response step: joins the response phase of the APIs whose pipeline includes it (chosen at compile time, like
 * request steps) and runs on every answer of such an API before its head is written.
 *
 * `head` is synchronous and must not throw (it reads what the request phase decided, already validated); a step
 * that throws fails the request (see response-phase.ts). Bodies stream through untouched unless a step's `body`
 * claims this answer's body (a response body transform, for the endpoints it names): the phase then buffers that
 * answer only, up to the rewrite's maxBytes, and writes the head with the rewritten body's length at its end.
 */
export interface ResponseStep {
  /** For logs. */
  readonly name: string;
  head(ctx: ProxyContext, head: ResponseHead): void;
  /** Called after every step's head edit, for streamed answers only: a rewrite claims this answer's body. */
  body?(ctx: ProxyContext, head: ResponseHead): ResponseBodyRewrite | undefined;
}

/** How a response step rewrites one buffered answer body. It answers its own failures (never with the body). */
export interface ResponseBodyRewrite {
  /** Most bytes buffered; beyond, tooLarge() answers and the rest of the body is dropped. */
  readonly maxBytes: number;
  /** The new body, or undefined when the rewrite failed and already answered the request. */
  rewrite(body: Buffer): Promise<Buffer | undefined>;
  tooLarge(): void;
}

/**
 * An API ready to serve: its spec plus the steps of both phases it needs, chosen once when the routing table is
 * built (proxy/compiled-api.ts).
 */
export interface CompiledApi {
  readonly spec: ApiSpec;
  readonly listenPath: string;
  readonly domain: string | undefined;
  /** Serve the listen path alone, not the paths under it (an Ingress pathType Exact). */
  readonly exact: boolean;
  /** The API is internal (ApiSpec.internal): the routing table never matches it for a client. */
  readonly internal: boolean;
  /** Request steps, in order. */
  readonly steps: readonly Step[];
  /** Each request step's name (its descriptor's, pipeline/step.ts), by the same index. */
  readonly stepNames: readonly string[];
  /** Each request step's timer (`gw_step_duration_seconds{step}`), by the same index. */
  readonly stepTimers: readonly StepTimer[];
  /** Response steps, in order; empty for most APIs (the phase then only writes). */
  readonly responseSteps: readonly ResponseStep[];
  /** Where failures of this API's steps are reported. */
  readonly log: Logger;
}
