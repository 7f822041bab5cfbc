// The request pipeline's steps, in the order a request meets them: the one place that order is decided. Each step's
// file exports its descriptor (pipeline/step.ts: name, enabledFor, build); proxy/compiled-api.ts builds, per API,
// the ones it enables. Adding a step: a file exporting its descriptor, and one line here at its place.
// Response steps run in this same order, except a step marked responseFirst (the circuit breaker).
import type { StepDescriptor } from '../pipeline/step.ts';
import { graphqlPlaygroundStep } from '../graphql/playground.ts';
import { clientCertificateStep } from '../middleware/access/client-certificate.ts';
import { corsStep } from '../middleware/access/cors.ts';
import { ipAccessStep } from '../middleware/access/ip-access.ts';
import { accessRightsStep } from '../middleware/auth/access-rights.ts';
import { authTokenStep } from '../middleware/auth/auth-token.ts';
import { basicAuthStep } from '../middleware/auth/basic-auth.ts';
import { certificateKeyStep } from '../middleware/auth/certificate-key.ts';
import { hmacAuthStep } from '../middleware/auth/hmac-auth.ts';
import { jwtAuthStep } from '../middleware/auth/jwt-auth.ts';
import { stripAuthStep } from '../middleware/auth/strip-auth.ts';
import { responseCacheStep } from '../middleware/caching/response-cache.ts';
import { apiRateLimitStep } from '../middleware/limits/api-rate-limit.ts';
import { circuitBreakerStep } from '../middleware/limits/circuit-breaker.ts';
import { keyLimitsStep } from '../middleware/limits/key-limits.ts';
import { orgLimitsStep } from '../middleware/limits/org-limits.ts';
import { requestSizeLimitStep } from '../middleware/limits/request-size-limit.ts';
import { detailedRecordingStep } from '../middleware/recording/detailed-recording.ts';
import { authenticatedMocksStep } from '../middleware/routing/authenticated-mocks.ts';
import { endpointListsStep } from '../middleware/routing/endpoint-lists.ts';
import { urlRewriteStep } from '../middleware/routing/url-rewrite.ts';
import { versionRoutingStep } from '../middleware/routing/version-routing.ts';
import { versionStep } from '../middleware/routing/version.ts';
import { globalRequestHeadersStep, globalResponseHeadersStep } from '../middleware/transforms/global-headers.ts';
import { transformRequestBodyStep } from '../middleware/transforms/transform-request-body.ts';
import { transformRequestHeadersStep, transformResponseHeadersStep } from '../middleware/transforms/transform-headers.ts';
import { transformResponseBodyStep } from '../middleware/transforms/transform-response-body.ts';
import { graphqlStep } from '../middleware/validation/graphql.ts';
import { validateJsonStep } from '../middleware/validation/validate-json.ts';
import { streamsStep } from '../streams/streams-step.ts';
import { upstreamStep } from './forward.ts';
import { graphqlSubscriptionsStep } from './upgrade-tunnel.ts';
import { internalEndpointsStep } from '../looping/internal-endpoints.ts';
import { internalLoopStep } from '../looping/loop-step.ts';
import { oauthBearerStep } from '../middleware/auth/oauth-bearer.ts';
import { oauthEndpointsStep } from '../oauth/endpoints.ts';
import { prePluginsStep } from '../plugins/pre-plugins.ts';
import { postKeyAuthPluginsStep } from '../plugins/post-auth-plugins.ts';
import { authPluginStep } from '../plugins/auth-plugin.ts';
import { postPluginsStep } from '../plugins/post-plugins.ts';
import { responsePluginsStep } from '../plugins/response-plugins.ts';
import { virtualEndpointsStep } from '../plugins/virtual-endpoint.ts';
import { grpcAuthStep } from '../plugins/grpc/grpc-auth.ts';
import { grpcPostKeyAuthStep, grpcPostStep, grpcPreStep } from '../plugins/grpc/grpc-request-hook.ts';
import { grpcResponseStep } from '../plugins/grpc/grpc-response.ts';

export const STEP_ORDER: readonly StepDescriptor[] = [
  // IP lists, then static mTLS, in Tyk Gateway's order (IPWhiteList, IPBlackList, CertificateCheck): no other step
  // sees a request from a refused address or without an allowed certificate.
  ipAccessStep,
  clientCertificateStep,
  corsStep, // a preflight is answered before versions, lists and authentication
  prePluginsStep, // JavaScript custom_middleware.pre
  grpcPreStep, // gRPC custom_middleware.pre
  oauthEndpointsStep, // use_oauth2: /oauth/authorize, /oauth/token, /oauth/revoke
  graphqlPlaygroundStep,
  versionRoutingStep, // an OAS base API: another version's API takes the request
  versionStep,
  internalEndpointsStep, // looped requests only reach internal endpoints
  endpointListsStep, // and Classic mocks
  // Every enabled authentication mode must pass, in Tyk's order (OAuth bearer, basic, HMAC, JWT, token, custom).
  oauthBearerStep,
  basicAuthStep,
  hmacAuthStep,
  jwtAuthStep,
  authTokenStep,
  certificateKeyStep,
  authPluginStep, // JavaScript custom_middleware.auth_check
  grpcAuthStep, // gRPC custom_middleware.auth_check (CustomKeyCheck)
  postKeyAuthPluginsStep, // JavaScript custom_middleware.post_key_auth
  grpcPostKeyAuthStep, // gRPC custom_middleware.post_key_auth
  accessRightsStep,
  orgLimitsStep,
  apiRateLimitStep,
  keyLimitsStep, // rate limit, throttling and quota; X-RateLimit-* on every answer
  requestSizeLimitStep,
  graphqlStep, // GraphQL validation and limits
  validateJsonStep,
  authenticatedMocksStep, // OAS mocks: after authentication and limits
  transformRequestBodyStep,
  transformRequestHeadersStep,
  urlRewriteStep,
  transformResponseBodyStep,
  transformResponseHeadersStep,
  stripAuthStep,
  globalRequestHeadersStep,
  globalResponseHeadersStep,
  internalLoopStep, // a tyk:// rewrite or target_url: the target API takes the request
  graphqlSubscriptionsStep, // a GraphQL API's WebSocket upgrades, tunnelled
  responseCacheStep, // a hit answers
  virtualEndpointsStep, // JavaScript virtual endpoints answer
  postPluginsStep, // JavaScript custom_middleware.post
  grpcPostStep, // gRPC custom_middleware.post
  responsePluginsStep, // JavaScript custom_middleware.response (on the upstream's answer)
  grpcResponseStep, // gRPC custom_middleware.response
  circuitBreakerStep,
  detailedRecordingStep, // licensed mode
  streamsStep, // an API with streams: its stream endpoints…
  upstreamStep, // …every other API: the upstream (round robin, upstream mTLS, pinning)
];
