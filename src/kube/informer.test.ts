// The informer's reflector loop against a stand-in client (this module alone): a watch that the server ends at once,
// without an error and without an event, is followed by a backoff wait before the next watch, as client-go's
// reflector does ("very short watch"); a watch that carried events is started again at once.
import { setImmediate as turn } from 'node:timers/promises';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { Backoff } from './backoff.ts';
import type { KubeClient, WatchEvent } from './client.ts';
import { Informer } from './informer.ts';
import type { KubeObject } from './object.ts';
import { CoreResources } from './resource.ts';

const log = pino({ level: 'silent' });

/** Counts its waits; waits one turn of the event loop only. */
class CountingBackoff extends Backoff {
  waits = 0;
  override async wait(): Promise<boolean> {
    this.waits++;
    await turn();
    return true;
  }
}

/** Runs an informer whose list is empty and whose watches each yield `events()` and end, for three watches. */
async function threeWatches(events: () => WatchEvent[]): Promise<{ informer: Informer<KubeObject>; backoff: CountingBackoff }> {
  const backoff = new CountingBackoff();
  const stop = new AbortController();
  let watches = 0;
  const client = {
    list: () => Promise.resolve({ items: [], resourceVersion: '1' }),
    watch: async function* () {
      await turn();
      yield* events();
      if (++watches === 3) stop.abort();
    },
  } as unknown as KubeClient;
  const informer = new Informer<KubeObject>(client, CoreResources.configMap, { log, backoff: () => backoff });
  await informer.run(stop.signal);
  return { informer, backoff };
}

const configMap = (rv: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n', resourceVersion: rv } });

describe('Informer watch loop', () => {
  it('backs off after a watch that ended at once without an event', async () => {
    const { informer, backoff } = await threeWatches(() => []);
    expect(informer.watchesStarted).toBe(3);
    expect(backoff.waits).toBe(2); // after the first and the second; the third ended with the stop
  });

  it('watches again at once after a watch that carried events', async () => {
    let rv = 1;
    const { informer, backoff } = await threeWatches(() => [{ type: 'MODIFIED', object: configMap(String(++rv)) }]);
    expect(informer.watchesStarted).toBe(3);
    expect(backoff.waits).toBe(0);
    expect(informer.cache.get('n/c')?.metadata.resourceVersion).toBe('4');
  });
});
