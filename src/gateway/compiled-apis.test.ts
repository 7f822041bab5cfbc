// Reloads keep compiled APIs whose compilation inputs are unchanged (compiled-apis.ts): the same compiled object
// when nothing changed; a new one when the definition, a file it read, a certificate (for an API naming one) or the
// policy ids (for a JWT API) changed, and only for the APIs that depend on the change. Loads run through the
// loader over a real embedded store; the compiled cache takes a load only when it is committed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { builtTemplateEngine } from '../../test/support/template-engine.ts';
import { Policy } from '../domain/policy.ts';
import { CompiledApis } from './compiled-apis.ts';
import { GatewayConfigSchema } from './config.ts';
import { releaseUnusedTemplates } from './definition/body-transforms.ts';
import { loadRoutes, type LoadResult } from './loader.ts';
import { GatewayMetrics } from './metrics.ts';
import { PluginPool } from './plugins/plugin-pool.ts';
import type { CompiledApi } from './pipeline/contract.ts';
import type { PipelineServices } from './pipeline/services.ts';
import { EmbeddedStore } from './store/embedded.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-compiled-apis-'));
const store = EmbeddedStore.open(join(dir, 'store'), {});
// Workers start on the first plugin call; these tests only compile.
const plugins = new PluginPool({ workers: 1, queue: 1, timeoutMs: 1000, memoryMb: 16 });
afterAll(async () => {
  await plugins.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});
const config = GatewayConfigSchema.parse({ secret: 'x', app_path: join(dir, 'no-apps'), policies: { policy_path: join(dir, 'no-policies.json') } });
const services = { store, config, plugins, metrics: new GatewayMetrics(), log: pino({ level: 'silent' }), now: Date.now } as unknown as PipelineServices;

const classic = (id: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: id,
  api_id: id,
  org_id: 'o',
  active: true,
  use_keyless: true,
  proxy: { listen_path: `/${id}/`, target_url: 'http://upstream.test' },
  ...extra,
});
const put = (id: string, extra: Record<string, unknown> = {}): Promise<void> => store.putApi({ id, format: 'classic', definition: classic(id, extra) });
const jwt = { use_keyless: false, enable_jwt: true, jwt_signing_method: 'hmac', jwt_source: Buffer.from('secret').toString('base64') };

beforeAll(() => {
  process.env.GW_TEMPLATE_ENGINE ??= builtTemplateEngine();
}, 180_000);

let compiled: CompiledApis;
/** Loads and serves (commits) what the store holds; answers the compiled APIs by id. */
async function load(): Promise<Map<string, CompiledApi> & { result: LoadResult }> {
  const result = await loadRoutes(store, services, undefined, compiled);
  compiled.commit(result.round);
  return Object.assign(new Map(result.table.routes().map((api) => [api.spec.id, api])), { result });
}

beforeEach(async () => {
  for (const api of await store.listApis()) await store.deleteApi(api.id);
  for (const policy of await store.listPolicies()) await store.deletePolicy(policy.id);
  for (const cert of await store.listCerts()) await store.deleteCert(cert.id);
  compiled = new CompiledApis(config);
});

describe('CompiledApis', () => {
  it('keeps an unchanged API (the same object) and compiles a changed one again', async () => {
    await put('a');
    await put('b');
    const first = await load();
    await put('b', { proxy: { listen_path: '/b/', target_url: 'http://other.test' } });
    const second = await load();
    expect(second.get('a')).toBe(first.get('a'));
    expect(second.get('b')).not.toBe(first.get('b'));
    expect(second.get('b')!.spec.target.origin).toBe('http://other.test:80');
    expect([second.result.round.compiledCount, second.result.round.reusedCount]).toEqual([1, 1]);
  });

  it('compiles again, on a certificate change, the APIs that name certificates and only those', async () => {
    await put('mtls', { upstream_certificates: { '*': 'client-cert' } });
    await put('plain');
    const first = await load();
    await store.putCert({ id: 'client-cert', pem: '-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n' });
    const second = await load();
    expect(second.get('mtls')).not.toBe(first.get('mtls'));
    expect(second.get('plain')).toBe(first.get('plain'));
  });

  it('compiles again, when the policy ids change, the JWT APIs and only those', async () => {
    await put('jwt', jwt);
    await put('token', { use_keyless: false });
    const first = await load();
    await store.putPolicy({ ...Policy.parse({ name: 'p', rate: 1, per: 1 }), id: 'p' });
    const second = await load();
    expect(second.get('jwt')).not.toBe(first.get('jwt'));
    expect(second.get('token')).toBe(first.get('token'));
    // A policy's content is read per request: changing it (same ids) keeps the JWT API.
    await store.putPolicy({ ...Policy.parse({ name: 'p', rate: 2, per: 1 }), id: 'p' });
    expect((await load()).get('jwt')).toBe(second.get('jwt'));
  });

  it('compiles again an API whose plugin source file changed, and keeps it while the file is unchanged', async () => {
    const source = join(dir, 'plugin.js');
    writeFileSync(source, 'var pre = new TykJS.TykMiddleware.NewMiddleware({});');
    await put('plugged', { custom_middleware: { driver: 'otto', pre: [{ name: 'pre', path: source }] } });
    const first = await load();
    expect(first.result.problems).toEqual([]);
    expect((await load()).get('plugged')).toBe(first.get('plugged'));
    writeFileSync(source, 'var pre = new TykJS.TykMiddleware.NewMiddleware({}); // edited');
    const edited = (await load()).get('plugged');
    expect(edited).not.toBe(first.get('plugged'));
    expect(edited!.spec.plugins!.script.source).toContain('edited');
  });

  it('keeps no failed compilation: the API is refused at every load until it compiles', async () => {
    await put('bad', { proxy: { listen_path: '/bad/', target_url: '' } });
    expect((await load()).result.problems.map((p) => p.id)).toEqual(['bad']);
    expect((await load()).result.problems.map((p) => p.id)).toEqual(['bad']);
    await put('bad');
    const fixed = await load();
    expect(fixed.result.problems).toEqual([]);
    expect(fixed.has('bad')).toBe(true);
  });

  it('reuses only what a served load compiled: a load never committed leaves the cache as it was', async () => {
    await put('a');
    const served = await load();
    await put('a', { name: 'renamed' });
    const abandoned = await loadRoutes(store, services, undefined, compiled); // prepared, never applied
    await put('a');
    const next = await load();
    expect(abandoned.table.routes()[0]).not.toBe(served.get('a'));
    expect(next.get('a')).toBe(served.get('a'));
  });

  it('keeps the body transform templates of a kept API when the load releases unused ones', async () => {
    const template = Buffer.from('{"b": {{.a}}}').toString('base64');
    const transform = { path: '/x', method: 'POST', template_data: { input_type: 'json', template_mode: 'blob', template_source: template } };
    await put('transformed', { extended_paths: { transform: [transform] } });
    await load();
    const inUse = releaseUnusedTemplates(); // as the gateway does once a load serves
    expect(inUse).toBeGreaterThan(0);
    const kept = await load();
    expect(kept.result.round.reusedCount).toBe(1);
    expect(releaseUnusedTemplates()).toBe(inUse);
  });
});
