// The client's address as the IP allow and block lists see it. The peer's own address, unless the peer is in
// trusted_proxies: then X-Forwarded-For is read from the right, each hop a trusted proxy added is skipped, and the
// first address no trusted proxy vouches for is the client (all of them trusted: the leftmost). Tyk Gateway also
// believes X-Real-IP and the first X-Forwarded-For entry from any peer, which lets every client choose its own
// address; gw reads neither from an untrusted peer, and never reads X-Real-IP (a proxy that appends to
// X-Forwarded-For may pass a client's X-Real-IP through untouched). An IPv4 peer seen on a dual-stack socket as
// `::ffff:a.b.c.d` is a.b.c.d. Reads only.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { ForwardingTrust } from '../../pipeline/services.ts';

/** Longest X-Forwarded-For walked; a longer chain's older hops are never reached (the walk stops at the first untrusted one). */
const MAX_HOPS = 32;

export function clientAddress(req: IncomingMessage, trust: ForwardingTrust): string {
  const peer = plainAddress(req.socket.remoteAddress ?? '');
  if (!trust.trusts(peer)) return peer;
  const header = req.headers['x-forwarded-for'];
  const chain = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',');
  let client = peer;
  for (let i = chain.length - 1, hops = 0; i >= 0 && hops < MAX_HOPS; i--, hops++) {
    const hop = hopAddress(chain[i]!);
    if (hop === '') continue;
    client = hop;
    if (!trust.trusts(hop)) break;
  }
  return client;
}

/** An X-Forwarded-For element: trimmed, `[v6]:port` and `v4:port` reduced to the address. */
function hopAddress(element: string): string {
  const text = element.trim();
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    return plainAddress(end > 0 ? text.slice(1, end) : text);
  }
  const colon = text.indexOf(':');
  if (colon > 0 && text.indexOf(':', colon + 1) === -1 && isIP(text.slice(0, colon)) === 4) return text.slice(0, colon);
  return plainAddress(text);
}

function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}
