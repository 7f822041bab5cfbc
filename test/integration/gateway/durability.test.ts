// The embedded store keeps keys, policies, APIs and quota counters across a restart and across a SIGKILL.
// Management writes are on disk before they are acknowledged. Quota counts: with storage.sync_counters every count
// survives a SIGKILL; by default counts reach the kernel in batches within milliseconds, so only the counts of the
// last few milliseconds before a SIGKILL could be lost.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { classicApi, startGateway } from '../../support/gateway.ts';
import { startUpstream } from '../../support/upstream.ts';

describe.each([
  { mode: 'storage.sync_counters', syncCounters: true, settleMs: 0 },
  { mode: 'the default batched counters', syncCounters: false, settleMs: 100 },
])('embedded store durability with $mode', ({ syncCounters, settleMs }) => {
  it('survives a clean restart and a SIGKILL with everything it acknowledged', async () => {
    const upstream = await startUpstream();
    const gw = await startGateway({ storage: { sync_counters: syncCounters } });
    expect((await gw.admin('POST', '/gw/apis', classicApi('kept', '/kept', upstream.url))).status).toBe(200);
    expect((await gw.admin('POST', '/gw/policies', { id: 'kept-policy', name: 'kept', access_rights: { kept: { api_id: 'kept' } }, quota_max: 5, quota_renewal_rate: 3600 })).status).toBe(200);
    await gw.reload();
    const key = (await gw.admin('POST', '/gw/keys/create', { apply_policies: ['kept-policy'] })).json<{ key: string }>().key;
    const use = async () => (await gw.call('/kept/x', { headers: { authorization: key } })).status;
    const remaining = async () => (await gw.admin('GET', `/gw/keys/${key}`)).json<{ quota_remaining: number }>().quota_remaining;

    for (let i = 0; i < 3; i++) expect(await use()).toBe(200);
    await gw.restart();
    expect(await remaining()).toBe(2);
    expect(await use()).toBe(200);

    await sleep(settleMs);
    await gw.stop('SIGKILL');
    await gw.restart();
    expect(await remaining()).toBe(1);
    expect((await gw.admin('GET', '/gw/policies/kept-policy')).status).toBe(200);
    expect(await use()).toBe(200);
    expect(await use()).toBe(403); // exactly 5 in the period, across two restarts
  });
});
