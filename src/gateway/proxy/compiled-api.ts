// Compiles an API into its pipeline, once, when the routing table is built (a keyless API carries no authentication
// or rate-limit steps at all; an API without versions or endpoint lists skips those checks). Request order:
// IP allow and block lists -> static mTLS -> CORS preflight -> JavaScript pre plugins -> (a GraphQL API: its playground page, graphql/playground.ts) ->
// (an OAS base API: another version's API takes the request, middleware/version-routing.ts) -> version -> endpoint
// lists and Classic mocks -> authentication (basic, HMAC, JWT, token: each
// enabled one) -> JavaScript post_key_auth plugins -> access rights -> organisation limits -> API-wide rate limit -> key rate limit, throttling and
// quota -> request size limits -> GraphQL validation and limits -> JSON Schema validation -> OAS mocks -> request
// body transforms -> request header transforms -> URL rewrites -> credential stripping -> global request headers ->
// (a GraphQL API's WebSocket upgrades tunnelled: subscriptions) -> response cache (a hit answers) -> circuit breaker
// -> virtual endpoints and JavaScript post plugins (../plugins/) -> detailed analytics recording (licensed mode) -> upstream (round robin over load-balanced targets:
// target-selection.ts; with its TLS settings: upstream mTLS, pinning), or,
// for an API with streams, its stream endpoints (../streams/streams-step.ts).
// Response steps join with the request steps that need them: the key limits bring the
// X-RateLimit headers, response header transforms their edits, response body transforms a buffered body for the
// endpoints they name; global_response_headers edit upstream answers; CORS adds its headers to every answer.
// The contract (context, step types, CompiledApi) lives in ../pipeline/; this file only chooses the steps.
import type { ApiSpec, BaseIdentity } from '../definition/api-spec.ts';
import { accessRights } from '../middleware/access-rights.ts';
import { apiRateLimit } from '../middleware/api-rate-limit.ts';
import { authenticatedMocks } from '../middleware/authenticated-mocks.ts';
import { authToken } from '../middleware/auth-token.ts';
import { certificateKey } from '../middleware/certificate-key.ts';
import { circuitBreakers } from '../middleware/circuit-breaker.ts';
import { responseCache } from '../middleware/response-cache.ts';
import { basicAuth } from '../middleware/basic-auth.ts';
import { clientCertificate } from '../middleware/client-certificate.ts';
import { globalRequestHeaders, globalResponseHeaders } from '../middleware/global-headers.ts';
import { graphqlRequests } from '../middleware/graphql.ts';
import { corsHeaders, corsPreflight } from '../middleware/cors.ts';
import { hmacAuth } from '../middleware/hmac-auth.ts';
import { ipAccess } from '../middleware/ip-access.ts';
import { jwtAuth } from '../middleware/jwt-auth.ts';
import { endpointLists } from '../middleware/endpoint-lists.ts';
import { detailedRecording } from '../middleware/detailed-recording.ts';
import { orgLimits } from '../middleware/org-limits.ts';
import { keyLimits } from '../middleware/key-limits.ts';
import { requestSizeLimit } from '../middleware/request-size-limit.ts';
import { rateLimitHeaders } from '../middleware/rate-limit-headers.ts';
import { stripAuth } from '../middleware/strip-auth.ts';
import { transformRequestBody } from '../middleware/transform-request-body.ts';
import { validateJson } from '../middleware/validate-json.ts';
import { transformRequestHeaders, transformResponseHeaders } from '../middleware/transform-headers.ts';
import { urlRewrite } from '../middleware/url-rewrite.ts';
import { requestIdentityEncoding, transformResponseBody } from '../middleware/transform-response-body.ts';
import { graphqlPlayground } from '../graphql/playground.ts';
import { selectVersion } from '../middleware/version.ts';
import { routeToVersion } from '../middleware/version-routing.ts';
import type { CompiledApi, ResponseStep, Step } from '../pipeline/contract.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import { streamEndpoints } from '../streams/streams-step.ts';
import { prePlugins } from '../plugins/pre-plugins.ts';
import { postKeyAuthPlugins } from '../plugins/post-auth-plugins.ts';
import { postPlugins } from '../plugins/post-plugins.ts';
import { responsePlugins } from '../plugins/response-plugins.ts';
import { virtualEndpoints } from '../plugins/virtual-endpoint.ts';
import { forwardUpstream } from './forward.ts';
import { targetSelector } from './target-selection.ts';
import { upgradeTunnel } from './upgrade-tunnel.ts';
import { upstreamTlsResolver } from './upstream-tls.ts';

export function compileRoute(spec: ApiSpec, services: PipelineServices): CompiledApi {
  // IP lists first, then static mTLS, in Tyk Gateway's order (IPWhiteList, IPBlackList, CertificateCheck): no other
  // step sees a request from a refused address or without an allowed certificate.
  const steps: Step[] = spec.ipAccess ? [ipAccess(spec.ipAccess, services)] : [];
  if (spec.clientCertificates) steps.push(clientCertificate(spec.clientCertificates, services));
  const responseSteps: ResponseStep[] = [];
  if (spec.cors) {
    steps.push(corsPreflight);
    responseSteps.push(corsHeaders);
  }
  const pre = prePlugins(spec, services);
  if (pre) steps.push(pre);
  if (spec.graphql?.playgroundPath !== undefined) steps.push(graphqlPlayground(spec.graphql.playgroundPath));
  if (spec.childVersions) steps.push(routeToVersion(spec.childVersions, services));
  steps.push(selectVersion(services));
  const hasLists = [...spec.versions.values()].some((v) => v.whiteList.length + v.blackList.length + v.ignored.length > 0);
  if (hasLists) steps.push(endpointLists(services));
  const authenticated = spec.auth.kind === 'token' || spec.jwt !== undefined || spec.basic !== undefined || spec.hmac !== undefined;
  // Every enabled mode must pass, in Tyk's order (basic, HMAC, JWT, token); the session is the named mode's.
  const provides = (mode: BaseIdentity): boolean => spec.baseIdentity === '' || spec.baseIdentity === mode;
  if (spec.basic) steps.push(basicAuth(spec.basic, spec, services, provides('basic_auth_user')));
  if (spec.hmac) steps.push(hmacAuth(spec.hmac, services, provides('hmac_key')));
  if (spec.jwt) steps.push(jwtAuth(spec.jwt, spec.orgId, services, provides('jwt_claim')));
  if (spec.auth.kind === 'token')
    steps.push(
      spec.tokenFromCertificate ? certificateKey(spec.orgId, services, provides('auth_token')) : authToken(spec.auth, services, provides('auth_token')),
    );
  const postKeyAuth = postKeyAuthPlugins(spec, services);
  if (postKeyAuth) steps.push(postKeyAuth);
  if (authenticated) steps.push(accessRights(services));
  if (services.config.enforce_org_quotas && spec.orgId) steps.push(orgLimits(services));
  if (spec.globalRateLimit) steps.push(apiRateLimit(spec.globalRateLimit, services));
  if (authenticated && !(spec.disableQuota && spec.disableRateLimit)) {
    steps.push(keyLimits(services));
    responseSteps.push(rateLimitHeaders);
  }
  if (services.config.max_request_body_size > 0 || [...spec.versions.values()].some((v) => v.sizeLimits || v.globalSizeLimit))
    steps.push(requestSizeLimit(services));
  if (spec.graphql) steps.push(graphqlRequests(spec.graphql, services));
  if ([...spec.versions.values()].some((v) => v.jsonValidations)) steps.push(validateJson(services));
  if ([...spec.versions.values()].some((v) => v.authenticatedMocks.length > 0)) steps.push(authenticatedMocks(services));
  if ([...spec.versions.values()].some((v) => v.bodyTransforms.length > 0)) steps.push(transformRequestBody(services));
  if ([...spec.versions.values()].some((v) => v.requestHeaders.length > 0)) steps.push(transformRequestHeaders);
  if ([...spec.versions.values()].some((v) => v.urlRewrites.length > 0)) steps.push(urlRewrite(services));
  if ([...spec.versions.values()].some((v) => v.responseBodyTransforms.length > 0)) {
    steps.push(requestIdentityEncoding);
    responseSteps.push(transformResponseBody(services));
  }
  if ([...spec.versions.values()].some((v) => v.responseHeaders.length > 0)) responseSteps.push(transformResponseHeaders);
  if (spec.stripAuthData) {
    for (const source of [spec.basic?.credential, spec.hmac?.credential, spec.jwt?.credential, spec.auth.kind === 'token' ? spec.auth : undefined]) {
      if (source) steps.push(stripAuth(source));
    }
  }
  if ([...spec.versions.values()].some((v) => v.globalRequestHeaders)) steps.push(globalRequestHeaders);
  if ([...spec.versions.values()].some((v) => v.globalResponseHeaders)) responseSteps.push(globalResponseHeaders);
  const nextTarget = targetSelector(spec);
  if (spec.graphql) steps.push(upgradeTunnel(services, nextTarget));
  if ([...spec.versions.values()].some((v) => v.cache)) steps.push(responseCache(services));
  const virtual = virtualEndpoints(spec, services);
  if (virtual) steps.push(virtual);
  const post = postPlugins(spec, services);
  if (post) steps.push(post);
  const responseHook = responsePlugins(spec, services);
  if (responseHook) responseSteps.push(responseHook);
  if ([...spec.versions.values()].some((v) => v.circuitBreakers)) {
    const breakers = circuitBreakers(spec, services);
    steps.push(breakers.step);
    responseSteps.unshift(breakers.response); // first: it judges the upstream's status before any step edits the head
  }
  if (services.analytics && !spec.analytics.doNotTrack) steps.push(detailedRecording(services.analytics));
  steps.push(spec.streams ? streamEndpoints(spec, services) : forwardUpstream(services, nextTarget, upstreamTlsResolver(spec, services)));
  return {
    spec,
    listenPath: spec.listenPath,
    domain: spec.domain,
    exact: spec.listenPathExact === true,
    internal: spec.internal === true,
    steps,
    responseSteps,
    log: services.log,
  };
}
