// ImportWorker: imports run on a real worker thread; results and refusals (as ImportError) come back; the queue
// is bounded; close() fails what is left.
import { afterEach, describe, expect, it } from 'vitest';
import { ImportError } from './errors.ts';
import { ImportBusyError, ImportWorker } from './import-runner.ts';

const openapi = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Worker API', version: '1' },
  servers: [{ url: 'http://w.internal' }],
  paths: { '/a': { get: {} } },
});

describe('ImportWorker', () => {
  let worker: ImportWorker | undefined;
  afterEach(async () => {
    await worker?.close();
  });

  it('converts on the worker and hands back the definition, and refusals as the same ImportError', async () => {
    worker = new ImportWorker();
    const { definition } = await worker.importApi({ format: 'swagger', document: openapi }, { apiId: 'w1' });
    expect(definition).toMatchObject({ name: 'Worker API', api_id: 'w1', proxy: { target_url: 'http://w.internal' } });
    const refused = await worker.importApi({ format: 'swagger', document: openapi }, { maxOperations: 0 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ImportError);
    expect((refused as ImportError).parameter).toBe('maxOperations');
    const version = await worker.importVersion(definition, { format: 'swagger', document: openapi }, { versionName: 'v2' });
    expect(Object.keys(version.definition.version_data?.versions ?? {})).toContain('v2');
  });

  it('refuses jobs beyond maxQueued with ImportBusyError and fails waiting jobs on close', async () => {
    worker = new ImportWorker({ maxQueued: 1 });
    const running = worker.importApi({ format: 'swagger', document: openapi }, {});
    const waiting = worker.importApi({ format: 'swagger', document: openapi }, {});
    await expect(worker.importApi({ format: 'swagger', document: openapi }, {})).rejects.toBeInstanceOf(ImportBusyError);
    const outcomes = Promise.allSettled([running, waiting]);
    await worker.close();
    expect((await outcomes).map((o) => o.status)).toContain('rejected');
  });
});
