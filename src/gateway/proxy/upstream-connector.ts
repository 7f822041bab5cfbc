// How the pool of an HTTPS upstream opens connections: undici's connector with the API's TLS options (client
// certificate), plus two checks on each new socket before the pool may write a byte to it:
// - pinning: the chain must carry a pinned public key (upstream-pinning.ts); else the socket is destroyed and the
//   connection fails with Tyk's pinning error (forward.ts answers 502 with its message);
// - TLS alerts: an upstream that refuses the gateway's client certificate does so after the TLS 1.3 handshake,
//   with an alert the pool then reports as a bare "other side closed". The alert is kept as that error's `cause`,
//   so forward.ts can tell a refused handshake (502) from an upstream that hung up.
import { TLSSocket, type ConnectionOptions } from 'node:tls';
import { buildConnector } from 'undici';
import { pinMismatch } from './upstream-pinning.ts';

const TLS_ALERT = /^ERR_SSL_/;

export function upstreamConnector(
  options: ConnectionOptions & { maxCachedSessions?: number },
  pins: ReadonlySet<string> | undefined,
  host: string,
): buildConnector.connector {
  const connect = buildConnector(options);
  return (connectOptions, callback) => {
    connect(connectOptions, (error, socket) => {
      if (error) return callback(error, null);
      const refused = pins && socket instanceof TLSSocket ? pinMismatch(socket, pins, host) : undefined;
      if (refused) {
        socket.destroy();
        return callback(refused, null);
      }
      keepTlsAlert(socket);
      callback(null, socket);
    });
  };
}

function keepTlsAlert(socket: NodeJS.EventEmitter): void {
  let alert: Error | undefined;
  socket.on('error', (error: Error & { code?: string }) => {
    if (typeof error.code === 'string' && TLS_ALERT.test(error.code)) alert = error;
    else if (alert && error.cause === undefined) error.cause = alert;
  });
}
