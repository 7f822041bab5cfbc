// The certificates the gateway's TLS listeners present, chosen by SNI, and which SNI names request a client
// certificate (mTLS). Rebuilt as a whole on every reload and every /gw/certs change from:
// http_server_options.certificates (PEM files, one per domain_name), http_server_options.ssl_certificates (store
// ids) and each API's `certificates` (store ids, served for the API's `domain` and for the names in the
// certificate). A rebuild swaps the lookup tables in one assignment: handshakes already done keep their context,
// the next handshake sees the new one, no restart.
//
// Lookup for an SNI name: exact name, then wildcards, longest suffix first, then the default (the first file
// certificate, else the first ssl_certificates id, else the first API certificate). A certificate's own wildcard
// names (and a file's `*.` domain_name) cover one label, as TLS clients check them; an API's domain covers what it
// routes (definition/domain-pattern.ts: `*.x` one or more labels, `{?:[^.]+}.x` exactly one). A client certificate is requested (never
// required, never verified in the handshake: the HTTP steps middleware/access/client-certificate.ts and certificate-key.ts
// answer with Tyk Gateway's statuses) when the SNI name is the domain of an API with static mTLS or use_certificate, or on every connection
// when such an API answers on every host (no `domain`).
// Never logs key material; a store id that is missing or has no usable key is a problem reported by name.
import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { createSecureContext, type SecureContext, type TLSSocket } from 'node:tls';
import type { SecureVersion, Server as TlsServer } from 'node:tls';
import type { StoredCert } from '../store/store.ts';
import { parseDomain, type DomainPattern } from '../../domain/domain-pattern.ts';
import { certificateNamePattern, DomainTable } from '../definition/domain-pattern.ts';

export interface FileCertificate {
  domain_name: string;
  cert_file: string;
  key_file: string;
}

/** What one API contributes to the listeners. */
export interface ApiTls {
  apiId: string;
  domain: string | undefined;
  certificates: readonly string[];
  /** Static mTLS or keys from client certificates: the listener asks its clients for a certificate. */
  requestsClientCertificate: boolean;
}

export interface TlsSources {
  files: readonly FileCertificate[];
  storeIds: readonly string[];
  apis: readonly ApiTls[];
}

interface Tables {
  byName: DomainTable<SecureContext>;
  fallback: { cert: string; key: string } | undefined;
  clientCertNames: DomainTable<true>;
  clientCertEverywhere: boolean;
  /** Store id -> SHA-256 fingerprint of its leaf (lower-case hex): the mTLS allow-lists match against it. */
  fingerprints: Map<string, string>;
}

const KEY_BLOCK = /-----BEGIN ((?:RSA |EC )?PRIVATE KEY)-----[\s\S]*?-----END \1-----\n?/;

export class ServerCertificates {
  #tables: Tables = {
    byName: new DomainTable(),
    fallback: undefined,
    clientCertNames: new DomainTable(),
    clientCertEverywhere: false,
    fingerprints: new Map(),
  };
  readonly #servers = new Set<TlsServer>();
  readonly #minVersion: SecureVersion;

  /** `minVersion`: the lowest TLS version every context accepts (a context replaces the server's options). */
  constructor(minVersion: SecureVersion) {
    this.#minVersion = minVersion;
  }

  /** Rebuilds every table; returns the problems (a missing id, a certificate without its key, an unreadable file). */
  rebuild(stored: readonly StoredCert[], sources: TlsSources): string[] {
    const problems: string[] = [];
    const byId = new Map(stored.map((cert) => [cert.id, cert]));
    const tables: Tables = {
      byName: new DomainTable(),
      fallback: undefined,
      clientCertNames: new DomainTable(),
      clientCertEverywhere: false,
      fingerprints: new Map(),
    };
    for (const cert of stored) tables.fingerprints.set(cert.id, leafFingerprint(cert.pem));

    const add = (pair: { cert: string; key: string }, names: readonly DomainPattern[]): void => {
      const context = createSecureContext({ ...pair, minVersion: this.#minVersion });
      tables.fallback ??= pair;
      for (const name of names) tables.byName.setIfAbsent(name, context);
    };
    const fromStore = (id: string, what: string, extraNames: readonly DomainPattern[]): void => {
      const found = byId.get(id);
      if (!found) return void problems.push(`${what}: certificate ${id} is not in the certificate store`);
      const pair = splitKey(found.pem);
      if (!pair) return void problems.push(`${what}: certificate ${id} has no unencrypted private key, it cannot be served`);
      try {
        add(pair, [...extraNames, ...certificateNames(pair.cert).map(certificateNamePattern)]);
      } catch (error) {
        problems.push(`${what}: certificate ${id} cannot be served: ${(error as Error).message}`);
      }
    };

    for (const file of sources.files) {
      try {
        const pair = { cert: readFileSync(file.cert_file, 'utf8'), key: readFileSync(file.key_file, 'utf8') };
        add(pair, [certificateNamePattern(file.domain_name)]);
      } catch (error) {
        problems.push(`http_server_options.certificates (${file.domain_name}): ${(error as Error).message}`);
      }
    }
    for (const id of sources.storeIds) fromStore(id, 'http_server_options.ssl_certificates', []);
    for (const api of sources.apis) {
      const domain = api.domain === undefined ? undefined : parseDomain(api.domain);
      const pattern = domain && !('problem' in domain) ? domain : undefined; // a refused domain never loads
      for (const id of api.certificates) fromStore(id, `api ${api.apiId} certificates`, pattern ? [pattern] : []);
      if (api.requestsClientCertificate) {
        if (pattern) tables.clientCertNames.setIfAbsent(pattern, true);
        else tables.clientCertEverywhere = true;
      }
    }
    this.#tables = tables;
    for (const server of this.#servers) this.#applyDefault(server);
    return problems;
  }

  /** The fingerprint of a stored certificate as of the last rebuild; undefined once it is removed. */
  fingerprintOf(id: string): string | undefined {
    return this.#tables.fingerprints.get(id);
  }

  /** Whether any certificate can be served (a TLS listener without one fails every handshake). */
  get empty(): boolean {
    return this.#tables.fallback === undefined;
  }

  /** Attaches a TLS server: its default context follows rebuilds. */
  attach(server: TlsServer): void {
    this.#servers.add(server);
    this.#applyDefault(server);
  }

  /** Stops following rebuilds for a closed server. */
  detach(server: TlsServer): void {
    this.#servers.delete(server);
  }

  /**
   * node:tls SNICallback. node calls it as a method of the TLS socket being handshaken (`this`), before the server
   * decides whether to send a CertificateRequest: that is where the client certificate is requested per name.
   */
  sniCallback(): (this: TLSSocket | undefined, servername: string, done: (error: Error | null, context?: SecureContext) => void) => void {
    const tablesNow = (): Tables => this.#tables;
    return function sni(this: TLSSocket | undefined, servername, done) {
      const tables = tablesNow();
      const name = servername.toLowerCase();
      if (this && (tables.clientCertEverywhere || tables.clientCertNames.find(name, (yes) => yes) === true)) requestClientCertificate(this);
      done(
        null,
        tables.byName.find(name, (context) => context),
      );
    };
  }

  #applyDefault(server: TlsServer): void {
    const { fallback, clientCertEverywhere } = this.#tables;
    if (fallback) server.setSecureContext({ ...fallback, minVersion: this.#minVersion });
    // Connections without SNI cannot be told apart: they are asked for a certificate when some mTLS API answers on
    // every host. node reads `requestCert` and `rejectUnauthorized` for each new connection; the latter defaults to
    // true, which would demand a CA-trusted certificate in the handshake ("certificate required" for plain APIs on
    // the listener, the allowed self-signed certificate cut off after it): the certificate is only requested, and
    // each API decides over HTTP, as Tyk Gateway does for mTLS APIs without a domain.
    const perConnection = server as TlsServer & { requestCert: boolean; rejectUnauthorized: boolean };
    perConnection.requestCert = clientCertEverywhere;
    perConnection.rejectUnauthorized = false;
  }
}

/** Asks this connection's client for a certificate without requiring one or failing on an untrusted one. */
function requestClientCertificate(socket: TLSSocket): void {
  const handle = (socket as unknown as { _handle?: { setVerifyMode?(request: boolean, reject: boolean): void } })._handle;
  handle?.setVerifyMode?.(true, false);
}

/** A stored PEM (chain plus unencrypted key) as node:tls's cert and key. */
function splitKey(pem: string): { cert: string; key: string } | undefined {
  const key = KEY_BLOCK.exec(pem);
  if (!key) return undefined;
  return { cert: pem.replace(key[0], ''), key: key[0] };
}

/** The leaf's CN and DNS names, lower-case. */
function certificateNames(chainPem: string): string[] {
  const leaf = new X509Certificate(chainPem);
  const names = (leaf.subjectAltName ?? '')
    .split(', ')
    .filter((entry) => entry.startsWith('DNS:'))
    .map((entry) => entry.slice(4).toLowerCase());
  const cn = /^CN=(.*)$/m.exec(leaf.subject)?.[1];
  return cn ? [...names, cn.toLowerCase()] : names;
}

/** SHA-256 of the leaf's DER, lower-case hex: the fingerprint in store ids and in Tyk Gateway's messages. */
export function leafFingerprint(chainPem: string): string {
  return new X509Certificate(chainPem).fingerprint256.replaceAll(':', '').toLowerCase();
}
