// /gw/certs stores exactly what it checked (issue 10 item 7): a body is a chain (leaf first, then its issuers) and
// at most one private key, every block decoded; a valid certificate followed by junk or by another kind of block
// is 400 naming the problem (it used to be stored whole, and GET answered 500 afterwards); an ENCRYPTED PRIVATE
// KEY counts as a key (has_private).
import { beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../support/gateway.ts';
import { pemMaterial, type PemMaterial } from '../../support/pem-material.ts';

describe('gateway /gw/certs bodies', () => {
  let gw: RunningGateway;
  let pem: PemMaterial;
  beforeAll(async () => {
    pem = pemMaterial('gateway.pem.test');
    gw = await startGateway();
  });

  const upload = (body: string) => gw.admin('POST', '/gw/certs?org_id=o1', body, { 'content-type': 'text/plain' });

  it('refuses a valid certificate followed by junk or by a block that is not part of a chain, and stores nothing', async () => {
    const junk = await upload(`${pem.cert}this is not PEM\n`);
    expect(junk.status).toBe(400);
    expect(junk.json<{ message: string }>().message).toMatch(/^Request malformed: line \d+ is outside any PEM block/);
    const publicKey = await upload(`${pem.cert}-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----\n`);
    expect(publicKey.status).toBe(400);
    expect(publicKey.json<{ message: string }>().message).toBe(
      'Request malformed: block 2 is a PUBLIC KEY: a body holds CERTIFICATE blocks (leaf first, then its issuers) and at most one private key',
    );
    const broken = await upload(`${pem.cert}-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n`);
    expect(broken.status).toBe(400);
    expect(broken.json<{ message: string }>().message).toMatch(/^Request malformed: block 2 \(CERTIFICATE\) does not parse/);
    const list = await gw.admin('GET', '/gw/certs?mode=detailed');
    expect(list.status).toBe(200);
    expect(list.json()).toEqual({ certs: [] });
  });

  it('stores a chain with an ENCRYPTED PRIVATE KEY as exactly the checked blocks, and serves it', async () => {
    const added = await upload(`\n${pem.cert}${pem.encryptedKey}\n`);
    expect(added.status).toBe(200);
    const { id } = added.json<{ id: string }>();
    const meta = await gw.admin('GET', `/gw/certs/${id}`);
    expect(meta.status).toBe(200);
    expect(meta.json()).toMatchObject({ id, has_private: true, dns_names: ['gateway.pem.test'], chain_length: 0 });
    expect(meta.text).not.toContain('BEGIN');

    const chain = await upload(`${pem.issuedCert}${pem.caCert}`);
    expect(chain.status).toBe(200);
    expect((await gw.admin('GET', `/gw/certs/${chain.json<{ id: string }>().id}`)).json()).toMatchObject({
      subject: 'CN=leaf.gateway.pem.test',
      has_private: false,
      chain_length: 1,
    });
    const reversed = await upload(`${pem.caCert}${pem.issuedCert}`);
    expect(reversed.status).toBe(400);
    expect(reversed.json<{ message: string }>().message).toBe(
      'Request malformed: certificate 2 did not issue certificate 1: a chain lists the leaf first, then each issuer in turn',
    );
    const twoKeys = await upload(`${pem.cert}${pem.key}${pem.encryptedKey}`);
    expect(twoKeys.json<{ message: string }>().message).toBe(
      "Request malformed: block 3 is a second private key: a body holds at most one (the leaf certificate's)",
    );
    const foreignKey = await upload(`${pem.issuedCert}${pem.key}`);
    expect(foreignKey.json<{ message: string }>().message).toBe('Request malformed: the private key does not belong to the (first) certificate');
  });
});
