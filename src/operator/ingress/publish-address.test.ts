import { describe, expect, it } from 'vitest';
import { loadBalancerStatus, parsePublishAddresses } from './publish-address.ts';

describe('publish address', () => {
  it('turns IPs into ip entries and names into hostname entries; empty writes nothing', () => {
    expect(loadBalancerStatus(parsePublishAddresses(' 10.0.0.1, lb.example.com ,2001:db8::1'))).toEqual({
      ingress: [{ ip: '10.0.0.1' }, { hostname: 'lb.example.com' }, { ip: '2001:db8::1' }],
    });
    expect(loadBalancerStatus(parsePublishAddresses(''))).toBeUndefined();
  });
});
