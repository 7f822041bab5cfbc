// GW_INGRESS_PUBLISH_ADDRESS -> an Ingress's status.loadBalancer (as ingress-nginx's --publish-status-address):
// each comma-separated entry is an IP (`ip`) or a DNS name (`hostname`). Empty: the operator does not write it.
import { isIP } from 'node:net';

export function parsePublishAddresses(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

export function loadBalancerStatus(addresses: string[]): { ingress: ({ ip: string } | { hostname: string })[] } | undefined {
  if (addresses.length === 0) return undefined;
  return { ingress: addresses.map((address) => (isIP(address) ? { ip: address } : { hostname: address })) };
}
