// upstream_certificates and pinned_public_keys (host pattern -> certificate ids): the shape both must have, shared
// by the gateway (which loads them) and the admission webhook (which refuses what the gateway would). A key is a
// host, `*`, `*.domain`, optionally with `:port`, never a URL; a value is non-empty (pins: comma-separated ids or PEM).

export interface MapProblem {
  key: string;
  problem: string;
}

const HOST_PATTERN = /^(\*|(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*)(:\d{1,5})?$/;

/** The first entry that cannot be used, with why; undefined when all can. */
export function upstreamTlsMapProblem(map: Record<string, unknown>): MapProblem | undefined {
  for (const [key, value] of Object.entries(map)) {
    if (!HOST_PATTERN.test(key)) return { key, problem: 'the key must be a host name, * or *.domain, optionally with :port (not a URL)' };
    if (typeof value !== 'string' || value.trim() === '') return { key, problem: 'must name a certificate id' };
  }
  return undefined;
}
