// An OpenTelemetry collector's receiving end for tests: OTLP/HTTP (POST /v1/traces, protobuf) on a node:http server
// and OTLP/gRPC (TraceService/Export) on a node:http2 server, both on loopback. Each ExportTraceServiceRequest is
// decoded with a generic protobuf wire reader and the field numbers of opentelemetry-proto's trace.proto (written
// from the .proto, not from gw's encoder), and its spans kept in arrival order with their resource's attributes.
import { createServer, type Server } from 'node:http';
import { createServer as createHttp2Server, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';

export type Attr = string | number | boolean;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client. */
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, Attr>;
  /** 0 unset, 1 ok, 2 error. */
  statusCode: number;
  resource: Record<string, Attr>;
}

export interface OtlpReceiver {
  /** http://127.0.0.1:<port> (OTLP/HTTP) */
  httpUrl: string;
  /** 127.0.0.1:<port> (OTLP/gRPC) */
  grpcEndpoint: string;
  spans: ReceivedSpan[];
  /** Headers of the exports received (the last one). */
  lastHeaders: Record<string, string | string[] | undefined>;
  close(): Promise<void>;
}

type Field = { wire: number; int: bigint; bytes: Buffer };

/** Reads a message's fields: number -> occurrences, in order. */
function fields(buffer: Buffer): Map<number, Field[]> {
  const out = new Map<number, Field[]>();
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buffer[at++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (at < buffer.length) {
    const tag = Number(varint());
    const number = tag >> 3;
    const wire = tag & 7;
    let field: Field;
    if (wire === 0) field = { wire, int: varint(), bytes: Buffer.alloc(0) };
    else if (wire === 1) {
      field = { wire, int: buffer.readBigUInt64LE(at), bytes: buffer.subarray(at, at + 8) };
      at += 8;
    } else if (wire === 2) {
      const length = Number(varint());
      field = { wire, int: 0n, bytes: buffer.subarray(at, at + length) };
      at += length;
    } else if (wire === 5) {
      field = { wire, int: BigInt(buffer.readUInt32LE(at)), bytes: buffer.subarray(at, at + 4) };
      at += 4;
    } else throw new Error(`unexpected wire type ${wire}`);
    const list = out.get(number) ?? [];
    list.push(field);
    out.set(number, list);
  }
  return out;
}

const all = (message: Map<number, Field[]>, number: number): Field[] => message.get(number) ?? [];
const one = (message: Map<number, Field[]>, number: number): Field | undefined => message.get(number)?.[0];
const text = (field: Field | undefined): string => field?.bytes.toString('utf8') ?? '';

/** KeyValue { key 1, value 2: AnyValue { string 1, bool 2, int 3, double 4 } } */
function attributes(list: Field[]): Record<string, Attr> {
  const out: Record<string, Attr> = {};
  for (const kv of list) {
    const pair = fields(kv.bytes);
    const value = fields(one(pair, 2)?.bytes ?? Buffer.alloc(0));
    const key = text(one(pair, 1));
    if (value.has(1)) out[key] = text(one(value, 1));
    else if (value.has(2)) out[key] = one(value, 2)!.int === 1n;
    else if (value.has(3)) out[key] = Number(one(value, 3)!.int);
    else if (value.has(4)) out[key] = one(value, 4)!.bytes.readDoubleLE(0);
  }
  return out;
}

/** ExportTraceServiceRequest { resource_spans 1 { resource 1 { attributes 1 }, scope_spans 2 { spans 2 } } } */
export function decodeExport(body: Buffer): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of all(fields(body), 1)) {
    const rs = fields(resourceSpans.bytes);
    const resource = attributes(all(fields(one(rs, 1)?.bytes ?? Buffer.alloc(0)), 1));
    for (const scopeSpans of all(rs, 2)) {
      for (const raw of all(fields(scopeSpans.bytes), 2)) {
        const s = fields(raw.bytes);
        const status = fields(one(s, 15)?.bytes ?? Buffer.alloc(0));
        spans.push({
          traceId: one(s, 1)?.bytes.toString('hex') ?? '',
          spanId: one(s, 2)?.bytes.toString('hex') ?? '',
          parentSpanId: one(s, 4)?.bytes.toString('hex') ?? '',
          name: text(one(s, 5)),
          kind: Number(one(s, 6)?.int ?? 0n),
          startNs: one(s, 7)?.int ?? 0n,
          endNs: one(s, 8)?.int ?? 0n,
          attributes: attributes(all(s, 9)),
          statusCode: Number(one(status, 3)?.int ?? 0n),
          resource,
        });
      }
    }
  }
  return spans;
}

const servers = new Set<Server | Http2Server>();
afterAll(async () => {
  await Promise.all([...servers].map((s) => new Promise((r) => s.close(r))));
  servers.clear();
});

/** `answer`: the HTTP status the OTLP/HTTP endpoint answers (a collector refusing exports: 503). */
export async function startOtlpReceiver(answer: () => number = () => 200): Promise<OtlpReceiver> {
  const receiver: OtlpReceiver = { httpUrl: '', grpcEndpoint: '', spans: [], lastHeaders: {}, close: async () => undefined };
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const status = answer();
      if (req.url === '/v1/traces' && req.headers['content-type'] === 'application/x-protobuf' && status === 200) {
        receiver.lastHeaders = req.headers;
        receiver.spans.push(...decodeExport(Buffer.concat(chunks)));
      }
      res.writeHead(req.url === '/v1/traces' ? status : 404, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  const grpc = createHttp2Server();
  grpc.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const frame = Buffer.concat(chunks);
      const ok = headers[':path'] === '/opentelemetry.proto.collector.trace.v1.TraceService/Export' && frame[0] === 0;
      if (ok) {
        receiver.lastHeaders = headers;
        receiver.spans.push(...decodeExport(frame.subarray(5, 5 + frame.readUInt32BE(1))));
      }
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': ok ? '0' : '12' }));
      stream.end(Buffer.from([0, 0, 0, 0, 0])); // an empty ExportTraceServiceResponse
    });
  });
  for (const server of [http, grpc]) {
    servers.add(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  }
  receiver.httpUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  receiver.grpcEndpoint = `127.0.0.1:${(grpc.address() as AddressInfo).port}`;
  receiver.close = async () => {
    for (const server of [http, grpc]) {
      servers.delete(server);
      if ('closeAllConnections' in server) server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  };
  return receiver;
}
