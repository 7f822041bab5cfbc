// Sends one encoded ExportTraceServiceRequest to the collector: OTLP/HTTP (POST application/x-protobuf to
// /v1/traces) or OTLP/gRPC (TraceService/Export over HTTP/2, the message in gRPC's 5-byte length-prefixed frame).
// Each export is bounded by connection_timeout; any failure (refused, timeout, non-2xx, grpc-status other than 0)
// rejects, and the processor counts the batch as dropped. Nothing here ever touches a client's request.
import { connect, constants as http2, type ClientHttp2Session } from 'node:http2';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { TracingConfig } from './config.ts';

export type Transport = ((body: Buffer) => Promise<void>) & { close(): void };

/** `host:port` or a URL; no scheme means plain text (the collectors' usual in-cluster setup). */
function collectorUrl(endpoint: string, defaultPath: string): URL {
  const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint) ? endpoint : `http://${endpoint}`);
  if (url.pathname === '/' || url.pathname === '') url.pathname = defaultPath;
  return url;
}

export function otlpTransport(config: TracingConfig): Transport {
  return config.exporter === 'grpc' ? grpcTransport(config) : httpTransport(config);
}

const MAX_ANSWER_BYTES = 64 * 1024;

function httpTransport(config: TracingConfig): Transport {
  const url = collectorUrl(config.endpoint, '/v1/traces');
  const timeoutMs = config.connection_timeout * 1000;
  const send = (body: Buffer): Promise<void> =>
    new Promise((resolve, reject) => {
      const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
        method: 'POST',
        headers: { ...config.headers, 'content-type': 'application/x-protobuf', 'content-length': body.length },
        timeout: timeoutMs,
      });
      request.on('timeout', () => request.destroy(new Error(`OTLP export timed out after ${timeoutMs} ms`)));
      request.on('error', reject);
      request.on('response', (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        response.on('error', reject);
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve();
          else reject(new Error(`OTLP collector answered ${status}`));
        });
      });
      request.end(body);
    });
  return Object.assign(send, { close: () => undefined });
}

function grpcTransport(config: TracingConfig): Transport {
  const url = collectorUrl(config.endpoint, '/');
  const authority = `${url.protocol === 'https:' ? 'https' : 'http'}://${url.host}`;
  const timeoutMs = config.connection_timeout * 1000;
  let session: ClientHttp2Session | undefined;
  const sessionNow = (): ClientHttp2Session => {
    if (session && !session.closed && !session.destroyed) return session;
    const opened = connect(authority);
    opened.on('error', () => opened.destroy()); // the pending stream fails with it; the next export reconnects
    opened.unref();
    session = opened;
    return opened;
  };
  const send = (body: Buffer): Promise<void> =>
    new Promise((resolve, reject) => {
      const frame = Buffer.alloc(5 + body.length);
      frame.writeUInt32BE(body.length, 1);
      body.copy(frame, 5);
      const stream = sessionNow().request({
        ...config.headers,
        [http2.HTTP2_HEADER_METHOD]: 'POST',
        [http2.HTTP2_HEADER_PATH]: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
        [http2.HTTP2_HEADER_CONTENT_TYPE]: 'application/grpc',
        te: 'trailers',
      });
      stream.setTimeout(timeoutMs, () => stream.close(http2.NGHTTP2_CANCEL));
      let grpcStatus: string | undefined;
      const take = (headers: Record<string, string | string[] | number | undefined>): void => {
        const status = headers['grpc-status'];
        if (status !== undefined) grpcStatus = Array.isArray(status) ? status[0] : String(status);
      };
      stream.on('response', take);
      stream.on('trailers', take);
      stream.on('data', () => undefined);
      stream.on('error', reject);
      stream.on('close', () => {
        if (grpcStatus === '0') resolve();
        else reject(new Error(`OTLP gRPC export failed (grpc-status ${grpcStatus ?? 'none'})`));
      });
      stream.end(frame);
    });
  return Object.assign(send, {
    close: () => {
      session?.close();
    },
  });
}
