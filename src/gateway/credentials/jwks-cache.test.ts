import { generateKeyPairSync } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JwksCache } from './jwks-cache.ts';

const jwk = (kid: string) => ({ ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }), kid });

describe('JwksCache', () => {
  const answers = new Map<string, (res: ServerResponse) => void>();
  const fetched = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    fetched.set(path, (fetched.get(path) ?? 0) + 1);
    answers.get(path)?.(res);
  });
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise((r) => server.close(r));
  });

  let clock = 0;
  const errors: string[] = [];
  const cache = (options: { timeoutMs?: number; maxBytes?: number } = {}) =>
    new JwksCache((_url, reason) => errors.push(reason), { now: () => clock, ...options });

  it("forgets a URL's keys on a flush: the next lookup fetches at once, whatever the interval, and flushes counts it", async () => {
    let keys = [jwk('a')];
    answers.set('/flushed', (res) => res.end(JSON.stringify({ keys })));
    const jwks = cache();
    const first = (await jwks.keys(`${base}/flushed`, 'a'))[0];
    keys = [jwk('a')]; // the same kid, another key
    expect(jwks.keys(`${base}/flushed`, 'a')).toEqual([first]);
    const flushes = jwks.flushes;
    jwks.forget(`${base}/flushed`);
    expect(jwks.flushes).toBe(flushes + 1);
    const after = await jwks.keys(`${base}/flushed`, 'a');
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(first);
    expect(fetched.get('/flushed')).toBe(2);
    jwks.clear();
    expect(jwks.flushes).toBe(flushes + 2);
  });

  it('serves keys from memory and refetches an unknown kid at most once per interval', async () => {
    let keys = [jwk('a')];
    answers.set('/rotating', (res) => res.end(JSON.stringify({ keys })));
    const jwks = cache();
    expect(await jwks.keys(`${base}/rotating`, 'a')).toHaveLength(1);
    expect(jwks.keys(`${base}/rotating`, 'a')).toHaveLength(1); // synchronous: no fetch, no promise
    keys = [jwk('b')];
    clock += 1_000;
    expect(jwks.keys(`${base}/rotating`, 'b')).toEqual([]); // within the minimum interval: no fetch
    expect(fetched.get('/rotating')).toBe(1);
    clock += 10_000;
    expect(await jwks.keys(`${base}/rotating`, 'b')).toHaveLength(1);
    expect(fetched.get('/rotating')).toBe(2);
  });

  it('shares one fetch among concurrent requests', async () => {
    answers.set('/shared', (res) => res.end(JSON.stringify({ keys: [jwk('s')] })));
    const jwks = cache();
    const all = await Promise.all(Array.from({ length: 20 }, async () => jwks.keys(`${base}/shared`, 's')));
    expect(all.every((keys) => keys.length === 1)).toBe(true);
    expect(fetched.get('/shared')).toBe(1);
  });

  it('gives no keys, and logs why, for garbage, an oversized body, an error status or a timeout', async () => {
    answers.set('/garbage', (res) => res.end('<html>'));
    answers.set('/big', (res) => res.end(JSON.stringify({ keys: [jwk('x')], pad: 'x'.repeat(4096) })));
    answers.set('/status', (res) => res.writeHead(500).end('{}'));
    answers.set('/hang', () => undefined);
    const jwks = cache({ timeoutMs: 300, maxBytes: 1024 });
    for (const path of ['/garbage', '/big', '/status', '/hang']) expect(await jwks.keys(`${base}${path}`, 'x')).toEqual([]);
    expect(errors).toEqual(expect.arrayContaining(['JWKS is not JSON', 'JWKS body larger than 1024 bytes', 'JWKS answered 500']));
    expect(errors).toHaveLength(4);
  });

  it('keeps the previous keys when a refresh fails', async () => {
    let up = true;
    answers.set('/flaky', (res) => (up ? res.end(JSON.stringify({ keys: [jwk('f')] })) : res.writeHead(503).end()));
    const jwks = cache();
    expect(await jwks.keys(`${base}/flaky`, 'f')).toHaveLength(1);
    up = false;
    clock += 300_000; // stale: refreshed in the background while the old key keeps serving
    expect(jwks.keys(`${base}/flaky`, 'f')).toHaveLength(1);
    const deadline = Date.now() + 5_000;
    // Until the background refresh has failed and said so (the server counts the fetch before the cache reads the
    // answer: waiting on the count alone let the 503's log line land in the next test on a loaded machine).
    while (!errors.includes('JWKS answered 503') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(fetched.get('/flaky')).toBe(2);
    expect(await jwks.keys(`${base}/flaky`, 'f')).toHaveLength(1);
  });

  it('never fetches from a host outside allowedHosts, and never follows a redirect', async () => {
    answers.set('/listed-elsewhere', (res) => res.end(JSON.stringify({ keys: [jwk('h')] })));
    answers.set('/moved', (res) => res.writeHead(302, { location: `${base}/listed-elsewhere` }).end());
    const before = errors.length;
    const restricted = new JwksCache((_url, reason) => errors.push(reason), { now: () => clock, allowedHosts: ['idp.example.com'] });
    expect(await restricted.keys(`${base}/listed-elsewhere`, 'h')).toEqual([]);
    expect(fetched.get('/listed-elsewhere')).toBeUndefined();
    expect(await cache().keys(`${base}/moved`, 'h')).toEqual([]);
    expect(fetched.get('/listed-elsewhere')).toBeUndefined();
    expect(errors.slice(before)).toEqual(['host 127.0.0.1 is not in jwks.allowed_hosts: not fetched', 'JWKS answered 302: redirects are not followed']);
  });
});
