// Calls of the JavaScript plugin pool (src/gateway/plugins/plugin-pool.ts) as its unit tests make them: a virtual
// endpoint's call by function name, a host that answers nothing, and the body of a TykJsResponse answer (or the
// failure's message).
import type { HostHandler, PluginOutcome } from '../../src/gateway/plugins/plugin-pool.ts';

export const noHost: HostHandler = () => undefined;

/** The call of the virtual endpoint function `name`, with this request (the session and spec empty). */
export const virtualCall = (name: string, request: Record<string, unknown> = {}): string => JSON.stringify({ kind: 'virtual', name, args: [request, {}, {}] });

/** The Body of the TykJsResponse a call answered, or the message of its failure. */
export const responseBody = (outcome: PluginOutcome): string =>
  outcome.ok ? (JSON.parse(outcome.value!) as { Response: { Body: string } }).Response.Body : outcome.message;
