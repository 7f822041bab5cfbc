// What one proxied request carries through the pipeline. Created once per request by the handler; each step reads
// what earlier steps decided and adds its own decision. Steps never re-derive what is already here.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { VersionSpec } from '../definition/api-spec.ts';
import type { CompiledApi } from './compiled-api.ts';
import type { ResolvedKey } from '../session/session-cache.ts';
import type { EffectiveAccess } from '../session/apply-policies.ts';

export interface RateLimitHeaders {
  limit: number;
  remaining: number;
  /** Unix seconds. */
  reset: number;
}

export interface ProxyContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly api: CompiledApi;
  readonly method: string;
  /** Normalised request path (see request-path.ts); version stripping may shorten it. */
  path: string;
  /** `path` relative to the listen path, always starting with '/'. */
  relPath: string;
  /** Raw query string including '?', or ''. */
  query: string;
  version?: VersionSpec;
  /** The endpoint is in `ignored`: no authentication, rate limit or quota. */
  ignored: boolean;
  /** The credential as sent (never logged). */
  token?: string;
  key?: ResolvedKey;
  access?: EffectiveAccess;
  rateLimitHeaders?: RateLimitHeaders;
  readonly startedAt: number;
}

/** A pipeline step: `true` when it wrote the response (the pipeline stops), else `false`. */
export type Step = (ctx: ProxyContext) => boolean | Promise<boolean>;
