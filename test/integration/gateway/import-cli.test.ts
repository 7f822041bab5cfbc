// `gw gateway --import-swagger / --import-blueprint / --import-wsdl` run as a user runs them (a child process),
// on real public documents (test/integration/testdata/import, sources in its README). Each produced definition
// is loaded into a real gateway through its management API, and requests through the imported endpoints are
// proved to reach a real upstream (or, for blueprint mocks, to be answered without it).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/up/paths.ts';
import { addApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Echo, type Upstream } from '../../support/upstream.ts';

const DATA = join(REPO_ROOT, 'test', 'integration', 'testdata', 'import');
const PETSTORE_2 = join(DATA, 'petstore-swagger-2.0.json');
const PETSTORE_3 = join(DATA, 'petstore-openapi-3.0.json');
const MACHINES = join(DATA, 'machines-blueprint-ast.json');
const CALCULATOR = join(DATA, 'calculator.wsdl');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `bin/gw gateway <args>` to its exit. */
function gwGateway(args: string[]): Promise<Run> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(join(REPO_ROOT, 'bin', 'gw'), ['gateway', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolveRun({ code, stdout, stderr }));
  });
}

/** Runs an import that must succeed; returns the definition it printed and its warnings. */
async function imported(
  args: string[],
): Promise<{ definition: Record<string, unknown> & { api_id: string; proxy: { listen_path: string; target_url: string } }; stderr: string }> {
  const run = await gwGateway(args);
  expect(run.code, run.stderr).toBe(0);
  return { definition: JSON.parse(run.stdout) as never, stderr: run.stderr };
}

const echoed = (text: string): Echo => JSON.parse(text) as Echo;

describe('gw gateway import flags', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  let other: Upstream;
  let dir: string;
  beforeAll(async () => {
    [upstream, other] = await Promise.all([startUpstream(), startUpstream()]);
    gw = await startGateway();
    dir = mkdtempSync(join(tmpdir(), 'gw-import-test-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('documents the import flags in the usage text', async () => {
    const run = await gwGateway(['--help']);
    expect(run.code).toBe(0);
    for (const flag of [
      '--import-swagger',
      '--import-blueprint',
      '--import-wsdl',
      '--wsdl-service',
      '--wsdl-port',
      '--create-api',
      '--org-id',
      '--upstream-target',
      '--for-api',
      '--as-version',
      '--as-mock',
    ]) {
      expect(run.stdout).toContain(flag);
    }
  });

  describe('OpenAPI 2.0 (Swagger Petstore)', () => {
    let petstore: Awaited<ReturnType<typeof imported>>['definition'];
    beforeAll(async () => {
      ({ definition: petstore } = await imported([
        `--import-swagger=${PETSTORE_2}`,
        '--create-api',
        `--upstream-target=${upstream.url}`,
        '--org-id=org-import',
      ]));
    });

    it('creates an API on basePath whose endpoints reach the upstream; other paths are refused', async () => {
      expect(petstore).toMatchObject({
        name: 'Swagger Petstore',
        org_id: 'org-import',
        use_keyless: true,
        proxy: { listen_path: '/v2/', target_url: upstream.url },
      });
      await addApi(gw, petstore);
      const pet = await gw.call('/v2/pet/42');
      expect(pet.status).toBe(200);
      expect(echoed(pet.text)).toMatchObject({ method: 'GET', url: '/pet/42' });
      const byStatus = await gw.call('/v2/pet/findByStatus?status=sold');
      expect(echoed(byStatus.text).url).toBe('/pet/findByStatus?status=sold');
      const deleted = await gw.call('/v2/store/order/7', { method: 'DELETE' });
      expect(echoed(deleted.text)).toMatchObject({ method: 'DELETE', url: '/store/order/7' });
      const before = upstream.requests.length;
      expect((await gw.call('/v2/store/inventory')).status).toBe(403);
      expect((await gw.call('/v2/pet/42', { method: 'PATCH' })).status).toBe(403);
      expect(upstream.requests.length).toBe(before);
    });

    it('without --upstream-target fails with exit 2, naming the file and --upstream-target', async () => {
      const run = await gwGateway([`--import-swagger=${PETSTORE_2}`, '--create-api']);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(PETSTORE_2);
      expect(run.stderr).toMatch(/OpenAPI 2\.0 imports need an upstream URL.*http:\/\/petstore\.swagger\.io\/v2.*--upstream-target/);
    });

    it('refuses --as-mock: Swagger imports cannot create mocks', async () => {
      const run = await gwGateway([`--import-swagger=${PETSTORE_2}`, '--create-api', `--upstream-target=${upstream.url}`, '--as-mock']);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/Swagger imports cannot create mocks: --as-mock/);
    });

    it('--for-api + --as-version adds the OpenAPI 3.0 Petstore as a version with its own upstream', async () => {
      const file = join(dir, 'petstore.json');
      writeFileSync(file, JSON.stringify(petstore, null, 2));
      const { definition } = await imported([`--import-swagger=${PETSTORE_3}`, `--for-api=${file}`, '--as-version=v3', `--upstream-target=${other.url}`]);
      expect(definition.api_id).toBe(petstore.api_id);
      expect(definition.version_data).toMatchObject({ default_version: '1.0.0', versions: { v3: { name: 'v3', override_target: other.url } } });
      await addApi(gw, definition);
      expect((await gw.call('/v2/store/inventory')).status).toBe(403);
      const inventory = await gw.call('/v2/store/inventory', { headers: { 'x-api-version': 'v3' } });
      expect(inventory.status).toBe(200);
      expect(echoed(inventory.text).url).toBe('/store/inventory');
      expect(other.requests.at(-1)?.url).toBe('/store/inventory');
      const pet = await gw.call('/v2/pet/1');
      expect(echoed(pet.text).url).toBe('/pet/1');
      expect(upstream.requests.at(-1)?.url).toBe('/pet/1');

      const again = await gwGateway([`--import-swagger=${PETSTORE_3}`, `--for-api=${file}`, '--as-version=1.0.0']);
      expect(again.code).toBe(2);
      expect(again.stderr).toMatch(/already has a version named "1\.0\.0": choose another name with --as-version/);
    });
  });

  describe('OpenAPI 3.0 (Swagger Petstore 3)', () => {
    it('needs --upstream-target when servers[0] is relative, and otherwise sets a listen path from the title', async () => {
      const refused = await gwGateway([`--import-swagger=${PETSTORE_3}`, '--create-api']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/servers\[0\]\.url is a relative URL, not an upstream: \/api\/v3; set --upstream-target/);

      const { definition, stderr } = await imported([`--import-swagger=${PETSTORE_3}`, '--create-api', `--upstream-target=${upstream.url}/api/v3`]);
      expect(definition).toMatchObject({ name: 'Swagger Petstore - OpenAPI 3.0', proxy: { listen_path: '/swagger-petstore-openapi-3-0/' } });
      expect(stderr).toMatch(/warning: OpenAPI 3\.0 documents carry no listen path: the API listens on \/swagger-petstore-openapi-3-0\//);
      await addApi(gw, definition);
      const inventory = await gw.call('/swagger-petstore-openapi-3-0/store/inventory');
      expect(inventory.status).toBe(200);
      expect(echoed(inventory.text).url).toBe('/api/v3/store/inventory');
      const upload = await gw.call('/swagger-petstore-openapi-3-0/pet/5/uploadImage', {
        method: 'POST',
        body: 'png',
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(echoed(upload.text)).toMatchObject({ method: 'POST', url: '/api/v3/pet/5/uploadImage', body: 'png' });
    });
  });

  describe('API Blueprint (Machines API)', () => {
    it('--as-mock answers the example responses without calling the upstream', async () => {
      const { definition } = await imported([`--import-blueprint=${MACHINES}`, '--create-api', '--as-mock', `--upstream-target=${upstream.url}`]);
      expect(definition.proxy.listen_path).toBe('/machines-api/');
      await addApi(gw, definition);
      const before = upstream.requests.length;
      const list = await gw.call('/machines-api/machines');
      expect(list.status).toBe(200);
      expect(list.headers['content-type']).toBe('application/json');
      expect(list.text).toBe('[{\n    "_id": "52341870ed55224b15ff07ef",\n    "type": "bulldozer",\n    "name": "willy"\n}]\n');
      const created = await gw.call('/machines-api/machines', { method: 'POST', body: '{"type":"bulldozer","name":"willy"}' });
      expect([created.status, created.text]).toEqual([202, '{\n  "mesage": "Accepted"\n}\n']);
      const one = await gw.call('/machines-api/machines/waldo');
      expect([one.status, one.headers['content-type']]).toEqual([200, 'text/plain']);
      expect((await gw.call('/machines-api/machines/waldo', { method: 'DELETE' })).status).toBe(204);
      expect((await gw.call('/machines-api/gadgets')).status).toBe(403);
      expect(upstream.requests.length).toBe(before);
    });

    it('without --as-mock the same endpoints are passed to the upstream', async () => {
      const { definition } = await imported([`--import-blueprint=${MACHINES}`, '--create-api', `--upstream-target=${upstream.url}`, '--as-version=live']);
      definition.proxy.listen_path = '/machines-live/';
      await addApi(gw, definition);
      const one = await gw.call('/machines-live/machines/waldo', { method: 'PUT', body: '{"name":"waldo"}' });
      expect(echoed(one.text)).toMatchObject({ method: 'PUT', url: '/machines/waldo', body: '{"name":"waldo"}' });
    });
  });

  describe('WSDL (calculator)', () => {
    it('creates a SOAP API: POST on the port address path reaches the upstream', async () => {
      const { definition, stderr } = await imported([`--import-wsdl=${CALCULATOR}`, '--create-api', `--upstream-target=${upstream.url}`]);
      expect(definition).toMatchObject({ name: 'Calculator', proxy: { listen_path: '/calculator/', target_url: upstream.url } });
      expect(stderr).toMatch(/port CalculatorSoap \(soap\) of service Calculator is imported; not imported: CalculatorSoap12/);
      await addApi(gw, definition);
      const envelope =
        '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><Add xmlns="http://tempuri.org/"><intA>2</intA><intB>3</intB></Add></soap:Body></soap:Envelope>';
      const added = await gw.call('/calculator/calculator', {
        method: 'POST',
        body: envelope,
        headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '"http://tempuri.org/Add"' },
      });
      expect(added.status).toBe(200);
      expect(echoed(added.text)).toMatchObject({ method: 'POST', url: '/calculator', body: envelope, headers: { soapaction: '"http://tempuri.org/Add"' } });
      expect((await gw.call('/calculator/calculator')).status).toBe(403);
    });

    it('takes the upstream from the address; selects ports; names --wsdl-service when it does not exist', async () => {
      const { definition } = await imported([`--import-wsdl=${CALCULATOR}`, '--create-api', '--wsdl-service=Calculator', '--wsdl-port=CalculatorSoap12']);
      expect(definition.proxy.target_url).toBe('http://localhost:51515');
      const refused = await gwGateway([`--import-wsdl=${CALCULATOR}`, '--create-api', '--wsdl-service=Weather']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`${CALCULATOR}: the WSDL has no service "Weather" (--wsdl-service); its services: Calculator`);
    });
  });

  it('names the file when it cannot be read or parsed', async () => {
    const missing = await gwGateway([`--import-swagger=${join(dir, 'nope.json')}`, '--create-api']);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining(`cannot read ${join(dir, 'nope.json')} (--import-swagger)`)]);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"swagger": "2.0",');
    const bad = await gwGateway([`--import-swagger=${broken}`, '--create-api', `--upstream-target=${upstream.url}`]);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining(`${broken}: not a valid OpenAPI/Swagger JSON document`)]);
  });
});
