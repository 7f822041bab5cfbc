// Error responses of the proxy, byte for byte Tyk's template: `{\n    "error": "<message>"\n}` (4-space
// indent, no trailing newline), Content-Type application/json and X-Generator (unless hidden). A request sent as
// XML gets `<error>` XML instead. Every message the proxy answers with is declared here, once. Errors are answers
// like any other: they go through the API's response phase (response-phase.ts), never straight to the socket.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResponseHead } from './contract.ts';
import { respond } from './response-phase.ts';

export const Messages = {
  authMissing: 'Authorization field missing',
  keyNotAuthorised: 'Access to this API has been disallowed',
  resourceNotAllowed: 'Access to this resource has been disallowed',
  keyInactive: 'Key is inactive, please renew',
  keyExpired: 'Key has expired, please renew',
  rateLimited: 'Rate Limit Exceeded',
  apiRateLimited: 'API Rate Limit Exceeded',
  quotaExceeded: 'Quota exceeded',
  orgQuotaExceeded: 'This organisation quota has been exceeded, please contact your API administrator',
  orgRateLimited: 'This organisation rate limit has been exceeded, please contact your API administrator',
  orgInactive: 'this organisation access has been disabled, please contact your API administrator',
  hardTimeout: 'Upstream service reached hard timeout.',
  hostLookupFailed: 'Upstream host lookup failed',
  proxyFailed: 'There was a problem proxying the request',
  clientClosed: 'Client closed request',
  endpointForbidden: 'Requested endpoint is forbidden',
  ipDisallowed: 'access from this IP has been disallowed',
  versionMissing: 'Version information not found',
  versionUnknown: 'This API version does not seem to exist',
  versionExpired: 'Api Version has expired, please check documentation or contact administrator',
  notFound: 'No API is served at this path',
  duplicateHost: 'the Host header must appear exactly once and name one host',
  sessionLookupFailed: 'There was a problem proxying the request',
  storeUnavailable: "The gateway's store is unavailable, please retry",
  bodyTooLarge: 'Request is too large',
  breakerOpen: 'Service temporarily unavailable.',
  bodyTransformFailed: 'Body transform failure',
  bodyNotJson: 'the request body is not valid JSON (this endpoint transforms it as json)',
  bodyNotXml: 'the request body is not valid XML (this endpoint transforms it as xml)',
  graphqlDepthExceeded: 'depth limit exceeded',
  graphqlIntrospectionDisabled: 'introspection is disabled',
  graphqlWebsocketProtocol: 'invalid websocket protocol for upgrading to a graphql websocket connection',
} as const;

export const GENERATOR = 'gw';

const XML_TYPES = ['application/xml', 'text/xml', 'application/soap+xml'];

export function writeError(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message: string,
  options: { hideGenerator?: boolean; headers?: Record<string, string> } = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const contentType = req.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  const xml = contentType !== undefined && XML_TYPES.includes(contentType);
  const body = xml ? `<?xml version = "1.0" encoding = "UTF-8"?>\n<error>${escapeXml(message)}</error>` : `{\n    "error": ${JSON.stringify(message)}\n}`;
  const headers: ResponseHead['headers'] = {
    'content-type': xml ? 'application/xml' : 'application/json',
    'content-length': Buffer.byteLength(body),
  };
  for (const name in options.headers) headers[name.toLowerCase()] = options.headers[name];
  if (!options.hideGenerator) headers['x-generator'] = GENERATOR;
  respond(res, { status, headers, origin: 'error' }, body);
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
