// The Host a request is routed by must be unambiguous: RFC 9112 §3.2 makes a request with more than one Host field
// invalid (400), and Host's grammar (RFC 9110 §7.2, uri-host [":" port]) has no list form, so `Host: a, b` - what a
// proxy that joins repeated fields would make of two of them - is invalid too. node:http keeps the first Host and
// drops the others from req.headers, and passes a comma-separated value through whole, so an intermediary reading
// another of the hosts could be routed to one API while the gateway authorises another: read the raw headers.
// (A request without Host is refused by node:http itself, requireHostHeader.)
export function hasAmbiguousHost(rawHeaders: readonly string[]): boolean {
  let seen = false;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length !== 4 || name.toLowerCase() !== 'host') continue;
    if (seen || rawHeaders[i + 1]!.includes(',')) return true;
    seen = true;
  }
  return false;
}
