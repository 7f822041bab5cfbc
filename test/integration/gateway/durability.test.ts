// The embedded store keeps keys, policies, APIs and quota counters across a restart and across a SIGKILL.
// Management writes are on disk before they are acknowledged. Quota counts: with storage.sync_counters every count
// survives a SIGKILL; by default counts reach the kernel in batches within milliseconds, so only the counts of the
// last few milliseconds before a SIGKILL could be lost.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classicApi, startGateway } from '../../support/gateway.ts';
import { startUpstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

/** The quota counts handed to the kernel: the last quota record of each counter in the store's files (data/). */
function quotaUsedOnDisk(gatewayDir: string): number[] {
  const used = new Map<string, number>();
  for (const file of ['snapshot.jsonl', 'journal.jsonl'].map((name) => join(gatewayDir, 'data', name))) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.startsWith('{"t":"quota"')) continue;
      const record = JSON.parse(line) as { id: string; v?: { used: number } };
      if (record.v) used.set(record.id, record.v.used);
      else used.delete(record.id);
    }
  }
  return [...used.values()];
}

describe.each([
  { mode: 'storage.sync_counters', syncCounters: true },
  { mode: 'the default batched counters', syncCounters: false },
])('embedded store durability with $mode', ({ syncCounters }) => {
  it('survives a clean restart and a SIGKILL with everything it acknowledged', async () => {
    const upstream = await startUpstream();
    const gw = await startGateway({ storage: { sync_counters: syncCounters } });
    expect((await gw.admin('POST', '/gw/apis', classicApi('kept', '/kept', upstream.url))).status).toBe(200);
    expect(
      (
        await gw.admin('POST', '/gw/policies', {
          id: 'kept-policy',
          name: 'kept',
          access_rights: { kept: { api_id: 'kept' } },
          quota_max: 5,
          quota_renewal_rate: 3600,
        })
      ).status,
    ).toBe(200);
    await gw.reload();
    const key = (await gw.admin('POST', '/gw/keys/create', { apply_policies: ['kept-policy'] })).json<{ key: string }>().key;
    const use = async () => (await gw.call('/kept/x', { headers: { authorization: key } })).status;
    const remaining = async () => (await gw.admin('GET', `/gw/keys/${key}`)).json<{ quota_remaining: number }>().quota_remaining;

    for (let i = 0; i < 3; i++) expect(await use()).toBe(200);
    await gw.restart();
    expect(await remaining()).toBe(2);
    expect(await use()).toBe(200);

    // With sync_counters the 4th count is in the kernel before the answer; batched, it follows within a batch
    // (the kill waits for it on disk: a count not yet handed over is the documented loss window).
    if (syncCounters) expect(quotaUsedOnDisk(gw.dir)).toEqual([4]);
    else
      await waitUntil(
        () => `the 4th count on disk; found ${JSON.stringify(quotaUsedOnDisk(gw.dir))}`,
        () => quotaUsedOnDisk(gw.dir).includes(4),
      );
    await gw.stop('SIGKILL');
    await gw.restart();
    expect(await remaining()).toBe(1);
    expect((await gw.admin('GET', '/gw/policies/kept-policy')).status).toBe(200);
    expect(await use()).toBe(200);
    expect(await use()).toBe(403); // exactly 5 in the period, across two restarts
  });
});
