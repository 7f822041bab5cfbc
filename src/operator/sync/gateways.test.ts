// GatewayRegistry: an OperatorContext whose URL or secret changes drops the handle it used before (its change-feed
// watchers see `retired` abort) unless another owner still uses it, and the operator's own handle is never dropped;
// refuseWrites() fences every client, present and future: writes are refused before they reach the client, reads
// go on. The management clients are stand-ins recording calls (this module alone).
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { WritesRefusedError } from '../../kube/errors.ts';
import type { ManagementClient } from '../../mgmt/client.ts';
import { DEFAULT_OWNER, GatewayRegistry, type GatewayEnv } from './gateways.ts';

const env = (url: string, auth = 'secret'): GatewayEnv => ({ mode: 'ce', url, auth, org: 'org', insecureSkipVerify: false });

/** A registry whose clients record the calls that reach them. */
function registry(): { registry: GatewayRegistry; calls: string[] } {
  const calls: string[] = [];
  const clientFor = (e: GatewayEnv): ManagementClient =>
    ({
      mode: 'ce',
      url: e.url,
      getApi: (id: string) => Promise.resolve(void calls.push(`get ${e.url} ${id}`)),
      putApi: (id: string) => Promise.resolve(void calls.push(`put ${e.url} ${id}`)),
      reload: () => Promise.resolve(void calls.push(`reload ${e.url}`)),
    }) as unknown as ManagementClient;
  return { registry: new GatewayRegistry(10, pino({ level: 'silent' }), clientFor), calls };
}

describe('GatewayRegistry', () => {
  it('drops the handle a context used before its URL or secret changed, once no other owner uses it', () => {
    const { registry: r } = registry();
    const own = r.handle(env('http://own'), DEFAULT_OWNER);
    const old = r.handle(env('http://a'), 'ns/one');
    const shared = r.handle(env('http://a'), 'ns/two');
    expect(shared).toBe(old);
    r.handle(env('http://b'), 'ns/one'); // ns/two still uses http://a
    expect(old.retired.aborted).toBe(false);
    r.handle(env('http://a', 'rotated'), 'ns/two'); // a new secret: nobody uses the old handle any more
    expect(old.retired.aborted).toBe(true);
    expect(
      r
        .all()
        .map((h) => h.env.url)
        .sort(),
    ).toEqual(['http://a', 'http://b', 'http://own']);
    expect(r.all()).not.toContain(old);
    r.handle(env('http://own'), 'ns/three');
    r.handle(env('http://c'), 'ns/three'); // the operator's own settings stay in use by their owner
    expect(own.retired.aborted).toBe(false);
    expect(r.all()).toContain(own);
  });

  it('refuses writes through every client once fenced, before they are sent; reads go on', async () => {
    const { registry: r, calls } = registry();
    const before = r.handle(env('http://a'), 'ns/one');
    await before.client.putApi('x', {});
    r.refuseWrites('this replica lost its leader Lease');
    await expect(before.client.putApi('y', {})).rejects.toBeInstanceOf(WritesRefusedError);
    await expect(before.client.reload()).rejects.toThrow('reload on http://a refused: this replica lost its leader Lease');
    const after = r.handle(env('http://b'), 'ns/two');
    await expect(after.client.putApi('z', {})).rejects.toBeInstanceOf(WritesRefusedError);
    await after.client.getApi('z');
    expect(calls).toEqual(['put http://a x', 'get http://b z']);
  });
});
