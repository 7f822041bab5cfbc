// The forms of an API's `domain` (Classic `domain`, OAS `server.customDomain.name`), case-insensitive:
//   api.example.com          that host alone
//   *.example.com            any host under example.com, one or more labels deep (a.example.com, a.b.example.com);
//                            never example.com itself
//   {?:[^.]+}.example.com    exactly one label before example.com (a.example.com only): Tyk's host variable
//                            (gorilla/mux `{name}`, `{name:[^.]+}`, `{?:[^.]+}`), which its Ingress controller writes
//                            for a Kubernetes wildcard host, and so does ours (operator/ingress/templates.ts)
// Any other wildcard is refused. Shared by the gateway (gateway/definition/domain-pattern.ts matches hosts against
// it) and the admission webhook, so both refuse the same domains with the same words. Pure.

export type DomainPattern = { kind: 'host'; host: string } | { kind: 'label' | 'subdomains'; suffix: string };

/** A whole first label that is a mux host variable matching one label: `{name}`, `{name:[^.]+}`, `{?:[^.]+}`. */
const ONE_LABEL_VARIABLE = /^\{[A-Za-z0-9_?]*(?::\[\^\.\]\+)?\}$/;

/** The domain, lower-cased, as a pattern; the problem with it when it is none of the forms above. */
export function parseDomain(domain: string): DomainPattern | { problem: string } {
  const lower = domain.toLowerCase();
  const dot = lower.startsWith('{') ? lower.indexOf('}') + 1 : lower.indexOf('.'); // a variable's pattern may hold a '.'
  const first = dot <= 0 ? lower : lower.slice(0, dot);
  const suffix = dot <= 0 ? '' : lower.slice(dot);
  const kind = first === '*' ? 'subdomains' : ONE_LABEL_VARIABLE.test(first) ? 'label' : undefined;
  if (kind) {
    if (suffix.length < 2 || !suffix.startsWith('.') || /[*{}]/.test(suffix))
      return { problem: `${domain}: a wildcard is only supported as the whole first label, followed by a domain` };
    return { kind, suffix };
  }
  if (/[*{}]/.test(lower))
    return { problem: `${domain}: only a whole first label may be a wildcard: *.example.com (one or more labels) or {?:[^.]+}.example.com (exactly one)` };
  return { kind: 'host', host: lower };
}
