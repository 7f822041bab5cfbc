// The admission webhook server: HTTPS (the apiserver only calls webhooks over TLS) with the certificate of
// <certDir>/tls.crt + tls.key, swapped in for new connections whenever those files change (serving-certs.ts), and
// the four webhooks of handlers.ts on their paths. Per request:
//   unknown path 404; a method other than POST 405; a body that is not JSON (by Content-Type) 415; a body over
//   maxBodyBytes 413; a body that is not an admission.k8s.io/v1 AdmissionReview request 400; otherwise 200 with
//   the AdmissionReview response. A webhook that throws answers a denying review (500 InternalError) and logs:
//   with failurePolicy Fail that is what the apiserver would do anyway, and the log says why.
// The default body limit is 7 MiB, not the apiserver's 3 MiB request limit: an UPDATE review carries the object
// and the old object (up to 1.5 MiB each in etcd) plus the envelope, and a review refused for its size would block
// the update. It holds no state besides the certificate and never talks to the apiserver.
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { HttpError } from '../../http/errors.ts';
import { parseAdmissionReview, review, type AdmissionResponse } from './admission-review.ts';
import { WEBHOOKS, type Webhook } from './handlers.ts';
import type { AdmissionCluster } from './listen-paths.ts';
import { WebhookMetrics, type WebhookOutcome } from './metrics.ts';
import { ServingCerts } from './serving-certs.ts';

export { WEBHOOK_PATHS, WEBHOOKS } from './handlers.ts';

export interface WebhookServerOptions {
  /** Address to listen on (default 0.0.0.0). */
  host?: string;
  /** Port (the chart's webhooks.port, 9443); 0 picks a free one. */
  port: number;
  /** Directory holding tls.crt and tls.key (the chart mounts the Secret at /tmp/k8s-webhook-server/serving-certs). */
  certDir: string;
  log: Logger;
  /** Where to count requests (gw_operator_webhook_*); none: not counted. */
  registry?: Registry;
  /** Largest request body accepted, in bytes (default 7 MiB). */
  maxBodyBytes?: number;
  /** Periodic re-read of the certificate files, in ms (default 10 000), besides watching the directory. */
  certPollMs?: number;
  /** What the operator's cache holds (an ApiDefinition's listen path against the others'); none: not checked. */
  cluster?: AdmissionCluster;
}

export interface WebhookServer {
  /** The port listened on (useful with port 0). */
  port: number;
  /** Re-reads the certificate files now; true when a new certificate was taken into use. */
  reloadCertificates(): boolean;
  close(): Promise<void>;
}

export const DEFAULT_MAX_BODY_BYTES = 7 * 1024 * 1024;

export async function startWebhookServer(options: WebhookServerOptions): Promise<WebhookServer> {
  const { log } = options;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const metrics = options.registry ? new WebhookMetrics(options.registry) : undefined;
  const byPath = new Map(WEBHOOKS.map((webhook) => [webhook.path, webhook]));

  const certs = new ServingCerts({
    dir: options.certDir,
    log,
    ...(options.certPollMs !== undefined ? { pollMs: options.certPollMs } : {}),
    onChange: (pair) => server.setSecureContext(pair), // only ever called after server exists (from timers)
  });
  const server: Server = createServer({ ...certs.current, minVersion: 'TLSv1.2' }, (req, res) => {
    const started = performance.now();
    const webhook = byPath.get((req.url ?? '').split('?')[0]!);
    const done = (outcome: WebhookOutcome): void => metrics?.observe(webhook ? webhook.path.slice(1) : 'unknown', outcome, performance.now() - started);
    handle(webhook, req, res, maxBody, log, options.cluster).then(done, (error: unknown) => {
      log.error({ err: (error as Error).message, path: req.url }, 'webhook request failed');
      if (!res.headersSent) plain(res, 500, 'internal error');
      done('error');
    });
  });
  server.on('tlsClientError', (error) => log.debug({ err: error.message }, 'webhook TLS handshake failed'));

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
    });
  } catch (error) {
    certs.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  log.info({ port, certDir: options.certDir, paths: WEBHOOKS.map((w) => w.path) }, 'admission webhook server listening');

  return {
    port,
    reloadCertificates: () => certs.check(),
    close: async () => {
      certs.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

async function handle(
  webhook: Webhook | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  maxBody: number,
  log: Logger,
  cluster: AdmissionCluster | undefined,
): Promise<WebhookOutcome> {
  if (!webhook) return reply(res, 404, `no webhook at ${req.url ?? ''}; webhooks: ${WEBHOOKS.map((w) => w.path).join(', ')}`);
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    return reply(res, 405, 'admission webhooks accept POST only');
  }
  const type = req.headers['content-type'];
  if (type !== undefined && !/^application\/json\s*(;|$)/i.test(type)) return reply(res, 415, `expected Content-Type application/json, got ${type}`);
  const body = await readBody(req, maxBody);
  if (body === undefined) {
    res.setHeader('connection', 'close');
    return reply(res, 413, `an admission review must be at most ${maxBody} bytes`);
  }

  let request;
  try {
    request = parseAdmissionReview(body);
  } catch (error) {
    if (error instanceof HttpError) return reply(res, error.status, error.message);
    throw error;
  }

  let response: AdmissionResponse;
  try {
    response = webhook.admit(request, cluster);
  } catch (error) {
    log.error({ webhook: webhook.name, uid: request.uid, err: (error as Error).stack ?? String(error) }, 'admission webhook failed');
    response = {
      uid: request.uid,
      allowed: false,
      status: { status: 'Failure', code: 500, reason: 'InternalError', message: `webhook ${webhook.name} failed: ${(error as Error).message}` },
    };
  }
  const meta = {
    webhook: webhook.name,
    uid: request.uid,
    operation: request.operation,
    namespace: request.namespace,
    name: request.name,
    allowed: response.allowed,
    dryRun: request.dryRun,
  };
  if (response.allowed) log.debug({ ...meta, patched: response.patch !== undefined, warnings: response.warnings?.length ?? 0 }, 'admission review');
  else log.info({ ...meta, message: response.status?.message }, 'admission review denied');
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(review(response)));
  return response.allowed ? 'true' : 'false';
}

/** The body as text, or undefined when it grows past `max` bytes (the rest is discarded). */
function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    req.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > max) {
        tooLarge = true;
        chunks.length = 0;
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!tooLarge) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

function reply(res: ServerResponse, status: number, message: string): WebhookOutcome {
  plain(res, status, message);
  return 'error';
}

function plain(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${message}\n`);
}
