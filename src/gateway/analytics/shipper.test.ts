// The analytics shipper against a fake dashboard (a function): batches of at most batch_size, a batch removed only
// once accepted, retried (same records, same order) while the dashboard is unavailable, drops beyond the buffer
// counted, a refused batch dropped and counted, and close() shipping what is left.
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnalyticsRecord } from '../../domain/analytics-record.ts';
import { GatewayMetrics } from '../metrics.ts';
import { AnalyticsShipper, type ShipOutcome } from './shipper.ts';
import { outcomeOf } from './dashboard-shipping.ts';
import { waitUntil } from '../../../test/support/wait.ts';

const record = (n: number): AnalyticsRecord => ({ time: n, api_id: 'api', method: 'GET', path: `/${n}`, status: 200, latency_ms: 1 });
const options = { max_buffered_records: 5, batch_size: 2, flush_interval_ms: 10, retry_initial_ms: 5, retry_max_ms: 20 };

async function counter(metrics: GatewayMetrics, name: string): Promise<number> {
  const line = (await metrics.registry.metrics()).split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

describe('AnalyticsShipper', () => {
  const shippers: AnalyticsShipper[] = [];
  afterEach(async () => {
    await Promise.all(shippers.map((s) => s.close(0)));
    shippers.length = 0;
  });

  const start = (send: (records: AnalyticsRecord[]) => Promise<ShipOutcome>, metrics = new GatewayMetrics()) => {
    const shipper = new AnalyticsShipper(options, send, metrics, pino({ level: 'silent' }));
    shippers.push(shipper);
    return { shipper, metrics };
  };

  it('ships in batches of batch_size, in order', async () => {
    const batches: number[][] = [];
    const { shipper } = start(async (records) => {
      batches.push(records.map((r) => r.time));
      return 'accepted';
    });
    for (let n = 1; n <= 5; n++) shipper.record(record(n));
    await waitUntil('every record shipped', () => batches.flat().length === 5);
    expect(batches.flat()).toEqual([1, 2, 3, 4, 5]);
    expect(batches.every((b) => b.length <= 2)).toBe(true);
    expect(shipper.buffered).toBe(0);
  });

  it('keeps records while the dashboard is unavailable, counts drops beyond the buffer, then ships the kept ones', async () => {
    let up = false;
    const shipped: number[] = [];
    const { shipper, metrics } = start(async (records) => {
      if (!up) throw new Error('connect ECONNREFUSED');
      shipped.push(...records.map((r) => r.time));
      return 'accepted';
    });
    for (let n = 1; n <= 8; n++) shipper.record(record(n));
    expect(shipper.buffered).toBe(5);
    expect(await counter(metrics, 'gw_analytics_records_dropped_total{reason="buffer_full"}')).toBe(3);
    up = true;
    await waitUntil('the kept records shipped', () => shipped.length === 5);
    expect(shipped).toEqual([1, 2, 3, 4, 5]);
    expect(await counter(metrics, 'gw_analytics_records_shipped_total')).toBe(5);
  });

  it('drops and counts a batch the dashboard refuses, and goes on with the next', async () => {
    const shipped: number[] = [];
    const { shipper, metrics } = start(async (records) => {
      if (records.some((r) => r.time === 1)) return 'refused';
      shipped.push(...records.map((r) => r.time));
      return 'accepted';
    });
    for (let n = 1; n <= 3; n++) shipper.record(record(n));
    await waitUntil('the third record shipped', () => shipped.includes(3));
    expect(shipped).toEqual([3]);
    expect(await counter(metrics, 'gw_analytics_records_dropped_total{reason="refused"}')).toBe(2);
  });

  it('ships what is buffered on close, and counts what cannot leave before the deadline', async () => {
    const shipped: number[] = [];
    const { shipper } = start(async (records) => {
      shipped.push(...records.map((r) => r.time));
      return 'accepted';
    });
    shipper.record(record(1));
    await shipper.close(1000);
    expect(shipped).toEqual([1]);

    const { shipper: stuck, metrics } = start(async () => 'retry');
    stuck.record(record(2));
    await stuck.close(30);
    expect(stuck.buffered).toBe(0);
    expect(await counter(metrics, 'gw_analytics_records_dropped_total{reason="shutdown"}')).toBe(1);
  });

  it("judges the dashboard's answers: 2xx accepted, unavailable retried, other refusals dropped", () => {
    expect([200, 204, 500, 503, 429, 408, 401, 400, 413, 404].map(outcomeOf)).toEqual([
      'accepted',
      'accepted',
      'retry',
      'retry',
      'retry',
      'retry',
      'retry',
      'refused',
      'refused',
      'refused',
    ]);
  });
});
