// A real HTTP receiver for the gateway's event_webhooks: it keeps every event body it is sent (JSON) in order, for
// tests that wait on an event (HostDown, HostUp, ...) rather than on time. Closed after the file.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';

export interface EventReceiver<E> {
  /** The URL to name in event_webhooks. */
  url: string;
  /** Every event received so far, oldest first. */
  events: E[];
}

export async function startEventReceiver<E>(): Promise<EventReceiver<E>> {
  const events: E[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      events.push(JSON.parse(Buffer.concat(chunks).toString()) as E);
      res.end();
    });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`, events };
}
