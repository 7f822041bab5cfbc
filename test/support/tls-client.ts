// A TLS client for tests of the gateway's HTTPS listeners: one request on a fresh connection to a loopback port,
// with the SNI name (and Host) given, optionally a client certificate and a TLS version cap, reporting the HTTP
// answer and the certificate the server presented. The server's certificate is not verified here: the tests
// assert on what was presented.
import { request } from 'node:https';
import type { SecureVersion, TLSSocket } from 'node:tls';

export interface TlsCallOptions {
  servername: string;
  path?: string;
  /** Client certificate and key (PEM). */
  cert?: string;
  key?: string;
  maxVersion?: SecureVersion;
}

export interface TlsCallResult {
  status: number;
  text: string;
  /** The presented certificate's subject CN and subjectAltName (`DNS:a, DNS:b`). */
  presented: { cn: string | undefined; subjectAltName: string | undefined };
}

export function tlsCall(port: number, options: TlsCallOptions): Promise<TlsCallResult> {
  return new Promise((resolveCall, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: options.path ?? '/',
        servername: options.servername,
        headers: { host: options.servername },
        rejectUnauthorized: false,
        agent: false,
        ...(options.cert ? { cert: options.cert, key: options.key } : {}),
        ...(options.maxVersion ? { maxVersion: options.maxVersion } : {}),
      },
      (res) => {
        const peer = (res.socket as TLSSocket).getPeerCertificate();
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolveCall({ status: res.statusCode ?? 0, text, presented: { cn: peer.subject?.CN as string | undefined, subjectAltName: peer.subjectaltname } }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}
