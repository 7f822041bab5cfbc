// Upstream mTLS and public key pinning end to end: a real gateway process calling HTTPS upstreams on loopback
// (node:https), certificates made here with openssl. One upstream requires a client certificate issued by its own
// CA: the gateway presents the one named in upstream_certificates (200) or none (502). Another is pinned: the
// right key passes (200); a wrong pin is refused with 502 and Tyk's message, the upstream never sees the request.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addApi, classicApi, errorBody, type RunningGateway, startGateway } from '../../support/gateway.ts';

const HOST = 'upstream.test';

interface Material {
  serverCa: string;
  server: { cert: string; key: string };
  clientCa: string;
  client: { cert: string; key: string };
  /** Signed by the client CA too, but never uploaded: a pin naming it is a wrong pin. */
  other: { cert: string; key: string };
}

/** A CA for the upstreams' certificate (trusted by the gateway), and a CA for client certificates (trusted by the mTLS upstream). */
function material(): Material {
  const dir = mkdtempSync(join(tmpdir(), 'gw-upstream-tls-'));
  const file = (name: string): string => join(dir, name);
  const openssl = (...args: string[]): void => void execFileSync('openssl', args, { stdio: 'ignore' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  const ca = (name: string) =>
    openssl(
      'req',
      '-x509',
      ...ec,
      '-keyout',
      file(`${name}.key`),
      '-out',
      file(`${name}.pem`),
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=keyCertSign',
    );
  const leaf = (name: string, caName: string, usage: string, san?: string) => {
    openssl('req', ...ec, '-keyout', file(`${name}.key`), '-out', file(`${name}.csr`), '-subj', `/CN=${name}`);
    writeFileSync(file(`${name}.ext`), `extendedKeyUsage=${usage}\n${san ? `subjectAltName=${san}\n` : ''}`);
    openssl(
      'x509',
      '-req',
      '-in',
      file(`${name}.csr`),
      '-CA',
      file(`${caName}.pem`),
      '-CAkey',
      file(`${caName}.key`),
      '-CAcreateserial',
      '-out',
      file(`${name}.pem`),
      '-days',
      '2',
      '-extfile',
      file(`${name}.ext`),
    );
  };
  try {
    ca('server-ca');
    ca('client-ca');
    leaf('server', 'server-ca', 'serverAuth', `DNS:${HOST}`);
    leaf('client', 'client-ca', 'clientAuth');
    leaf('other', 'client-ca', 'clientAuth');
    const read = (name: string): string => readFileSync(file(name), 'utf8');
    const pair = (name: string) => ({ cert: read(`${name}.pem`), key: read(`${name}.key`) });
    return { serverCa: read('server-ca.pem'), server: pair('server'), clientCa: read('client-ca.pem'), client: pair('client'), other: pair('other') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('upstream mTLS and public key pinning', () => {
  let gw: RunningGateway;
  let pem: Material;
  let caDir: string;
  const servers: Server[] = [];
  const received = { mtls: [] as string[], plain: [] as string[] };
  afterAll(async () => {
    for (const server of servers) server.closeAllConnections();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    rmSync(caDir, { recursive: true, force: true });
  });

  async function listen(options: Parameters<typeof createServer>[0], log: string[]): Promise<string> {
    const server = createServer(options, (req, res) => {
      log.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url }));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `https://${HOST}:${(server.address() as AddressInfo).port}`;
  }

  const upload = async (body: string): Promise<string> => {
    const result = await gw.admin('POST', '/gw/certs', body, { 'content-type': 'text/plain' });
    expect(result.status).toBe(200);
    return result.json<{ id: string }>().id;
  };

  beforeAll(async () => {
    pem = material();
    caDir = mkdtempSync(join(tmpdir(), 'gw-upstream-ca-'));
    writeFileSync(join(caDir, 'ca.pem'), pem.serverCa);
    const mtlsUrl = await listen({ ...pem.server, ca: pem.clientCa, requestCert: true, rejectUnauthorized: true }, received.mtls);
    const plainUrl = await listen({ ...pem.server }, received.plain);
    gw = await startGateway({ upstream_hosts: { [HOST]: '127.0.0.1' } }, { env: { NODE_EXTRA_CA_CERTS: join(caDir, 'ca.pem') } });
    const clientId = await upload(`${pem.client.cert}${pem.client.key}`);
    const serverId = await upload(pem.server.cert);
    const otherId = await upload(pem.other.cert);
    const keyless = { use_keyless: true };
    await addApi(gw, classicApi('mtls', '/mtls', mtlsUrl, { ...keyless, upstream_certificates: { [HOST]: clientId } }));
    await addApi(gw, classicApi('mtls-wildcard', '/mtls-wildcard', mtlsUrl, { ...keyless, upstream_certificates: { '*': clientId } }));
    await addApi(gw, classicApi('mtls-none', '/mtls-none', mtlsUrl, keyless));
    await addApi(
      gw,
      classicApi('mtls-disabled', '/mtls-disabled', mtlsUrl, { ...keyless, upstream_certificates: { [HOST]: clientId }, upstream_certificates_disabled: true }),
    );
    await addApi(gw, classicApi('pinned', '/pinned', plainUrl, { ...keyless, pinned_public_keys: { [HOST]: `${otherId},${serverId}` } }));
    await addApi(gw, classicApi('pinned-wrong', '/pinned-wrong', plainUrl, { ...keyless, pinned_public_keys: { [`*.test`]: otherId } }));
    await addApi(gw, classicApi('pinned-pem', '/pinned-pem', plainUrl, { ...keyless, pinned_public_keys: { [HOST]: pem.server.cert } }));
    const oas = (id: string, url: string, upstream: Record<string, unknown>) => ({
      openapi: '3.0.3',
      info: { title: id, version: '1' },
      paths: {},
      'x-gw-api-gateway': {
        info: { id, name: id, state: { active: true } },
        upstream: { url, ...upstream },
        server: { listenPath: { value: `/${id}`, strip: true } },
      },
    });
    for (const doc of [
      oas('oas-mtls', mtlsUrl, {
        mutualTLS: { enabled: true, domainToCertificateMapping: [{ domain: HOST, certificate: clientId }] },
        certificatePinning: { enabled: true, domainToPublicKeysMapping: [{ domain: HOST, publicKeys: [serverId] }] },
      }),
      oas('oas-pinned-wrong', plainUrl, { certificatePinning: { enabled: true, domainToPublicKeysMapping: [{ domain: HOST, publicKeys: [otherId] }] } }),
    ])
      expect((await gw.admin('POST', '/gw/apis/oas', doc)).status).toBe(200);
    await gw.reload();
  });

  it('presents the configured client certificate to an upstream requiring one (exact host and *)', async () => {
    for (const path of ['/mtls/hello', '/mtls-wildcard/hello']) {
      const result = await gw.call(path);
      expect({ path, status: result.status }).toEqual({ path, status: 200 });
    }
    expect(received.mtls).toEqual(['/hello', '/hello']);
  });

  it('answers 502 when no client certificate is configured (or the setting is disabled)', async () => {
    for (const path of ['/mtls-none/hello', '/mtls-disabled/hello']) {
      const result = await gw.call(path);
      expect({ path, status: result.status, text: result.text }).toEqual({ path, status: 502, text: errorBody('There was a problem proxying the request') });
    }
  });

  it('calls a pinned upstream presenting a pinned key (store id or PEM), and never sends a request to one that does not', async () => {
    expect((await gw.call('/pinned/one')).status).toBe(200);
    expect((await gw.call('/pinned-pem/two')).status).toBe(200);
    const wrong = await gw.call('/pinned-wrong/three');
    const plainPort = (servers[1]!.address() as AddressInfo).port;
    expect([wrong.status, wrong.text]).toEqual([
      502,
      errorBody(`https://${HOST}:${plainPort} certificate public key pinning error. Public keys do not match.`),
    ]);
    expect(received.plain).toEqual(['/one', '/two']);
  });

  it('reads the same settings from an OAS API (upstream.mutualTLS, upstream.certificatePinning)', async () => {
    expect((await gw.call('/oas-mtls/four')).status).toBe(200);
    expect(received.mtls.at(-1)).toBe('/four');
    const before = received.plain.length;
    expect((await gw.call('/oas-pinned-wrong/five')).status).toBe(502);
    expect(received.plain.length).toBe(before);
  });
});
