// Tyk's internal-loop marker header, `X-Tyk-Internal` (apidef.TykInternalApiHeader): Tyk Gateway's round tripper
// serves an outbound request carrying it in memory, against the API its Host names, and removes it. gw marks a loop
// on the request's context only (loop-step.ts), never with a header, so this header means nothing to it coming from a
// client: it opens no internal API and skips nothing, and the upstream request never carries it (proxy/forward.ts
// drops it), so no client can make an upstream, or a Tyk Gateway behind gw, loop on its say-so.
export const TYK_INTERNAL_HEADER = 'x-tyk-internal';
