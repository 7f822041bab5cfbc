// logWrites: one line per write with method, path (no query), status and, when the caller sent a UUID as
// X-Gw-Reconcile-Id, that id as reconcileID at info; a write without it at debug; reads not at all; a header that is
// not a UUID never reaches the log.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { logWrites } from './write-log.ts';

const ID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';

async function served() {
  const lines: { level: 'info' | 'debug'; fields: Record<string, unknown>; message: string }[] = [];
  const log = {
    info: (fields: Record<string, unknown>, message: string) => void lines.push({ level: 'info', fields, message }),
    debug: (fields: Record<string, unknown>, message: string) => void lines.push({ level: 'debug', fields, message }),
  };
  const app = Fastify();
  logWrites(app, log, 'management API');
  app.all('/gw/apis/:id', async () => ({ status: 'ok' }));
  await app.ready();
  return { app, lines };
}

describe('logWrites', () => {
  it('logs a write carrying a reconcile id at info with that id, without the query', async () => {
    const { app, lines } = await served();
    await app.inject({ method: 'PUT', url: '/gw/apis/a?token=secret', headers: { 'x-gw-reconcile-id': ID } });
    expect(lines).toEqual([{ level: 'info', fields: { method: 'PUT', path: '/gw/apis/a', status: 200, reconcileID: ID }, message: 'management API write' }]);
  });

  it('logs other writes at debug, drops a reconcile id that is not a UUID, and logs no reads', async () => {
    const { app, lines } = await served();
    await app.inject({ method: 'DELETE', url: '/gw/apis/a' });
    await app.inject({ method: 'POST', url: '/gw/apis/a', headers: { 'x-gw-reconcile-id': 'x\n{"forged":true}' } });
    await app.inject({ method: 'GET', url: '/gw/apis/a', headers: { 'x-gw-reconcile-id': ID } });
    expect(lines).toEqual([
      { level: 'debug', fields: { method: 'DELETE', path: '/gw/apis/a', status: 200 }, message: 'management API write' },
      { level: 'debug', fields: { method: 'POST', path: '/gw/apis/a', status: 200 }, message: 'management API write' },
    ]);
  });
});
