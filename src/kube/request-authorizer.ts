// Who may read an endpoint of ours, decided by the cluster: the bearer token of the request goes to a TokenReview
// (authentication.k8s.io/v1) and the user it names to a SubjectAccessReview (authorization.k8s.io/v1) for a
// non-resource URL and verb — what kube-rbac-proxy and controller-runtime's metrics filter do. So Prometheus scrapes
// /metrics with its ServiceAccount token when the ClusterRole gw-operator-metrics-reader is bound to it, and
// nobody else does.
// Decisions are cached per token digest for ttlMs (default 60 s; denials 10 s) so a scrape every 15 s costs no
// API calls; the token itself is never stored or logged.
import { createHash } from 'node:crypto';
import type { KubeClient } from './client.ts';

export type AuthorizationDecision = { allowed: true; user: string } | { allowed: false; status: 401 | 403; reason: string };

interface TokenReview {
  status?: { authenticated?: boolean; user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> }; error?: string };
}

interface SubjectAccessReview {
  status?: { allowed?: boolean; denied?: boolean; reason?: string };
}

export interface RequestAuthorizerOptions {
  ttlMs?: number;
  deniedTtlMs?: number;
  now?: () => number;
}

export class RequestAuthorizer {
  readonly #kube: KubeClient;
  readonly #cache = new Map<string, { decision: AuthorizationDecision; until: number }>();
  readonly #ttlMs: number;
  readonly #deniedTtlMs: number;
  readonly #now: () => number;

  constructor(kube: KubeClient, options: RequestAuthorizerOptions = {}) {
    this.#kube = kube;
    this.#ttlMs = options.ttlMs ?? 60_000;
    this.#deniedTtlMs = options.deniedTtlMs ?? 10_000;
    this.#now = options.now ?? Date.now;
  }

  /** Whether the Authorization header's bearer token may `verb` the non-resource `path`. */
  async authorize(authorization: string | undefined, path: string, verb = 'get'): Promise<AuthorizationDecision> {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    if (!token) return { allowed: false, status: 401, reason: 'a bearer token is required' };
    const key = `${createHash('sha256').update(token).digest('hex')} ${verb} ${path}`;
    const cached = this.#cache.get(key);
    if (cached && cached.until > this.#now()) return cached.decision;
    const decision = await this.#review(token, path, verb);
    if (this.#cache.size > 1000) this.#cache.clear();
    this.#cache.set(key, { decision, until: this.#now() + (decision.allowed ? this.#ttlMs : this.#deniedTtlMs) });
    return decision;
  }

  async #review(token: string, path: string, verb: string): Promise<AuthorizationDecision> {
    const review = await this.#kube.request<TokenReview>('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } },
    });
    const user = review.status?.user;
    if (!review.status?.authenticated || !user?.username) return { allowed: false, status: 401, reason: 'the token is not valid for this cluster' };
    const access = await this.#kube.request<SubjectAccessReview>('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: { user: user.username, uid: user.uid, groups: user.groups, extra: user.extra, nonResourceAttributes: { path, verb } },
      },
    });
    if (!access.status?.allowed) return { allowed: false, status: 403, reason: `${user.username} may not ${verb} ${path}` };
    return { allowed: true, user: user.username };
  }
}
