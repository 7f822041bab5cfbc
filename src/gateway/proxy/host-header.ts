// The Host a request is routed by must be unambiguous: RFC 9112 §3.2 makes a request with more than one Host field
// invalid (400). node:http keeps the first Host and drops the others from req.headers, so an intermediary reading
// the last one could be routed to one API while the gateway authorises another: count the fields in the raw
// headers. (A request without Host is refused by node:http itself, requireHostHeader.)
export function hasDuplicateHost(rawHeaders: readonly string[]): boolean {
  let seen = false;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length !== 4 || name.toLowerCase() !== 'host') continue;
    if (seen) return true;
    seen = true;
  }
  return false;
}
