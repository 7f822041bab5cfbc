// The uptime checker's state machine (host-checker.ts), rounds driven by the test with a scripted check sender:
// down after failure_trigger_sample_size failures (successes before that do not reset the count), HostDown once per
// API checking the host, back up after as many successes (HostUp), only 200 counts as healthy, and a reload that
// drops a check forgets its host's state.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { ApiSpec, UptimeCheckSpec } from '../definition/api-spec.ts';
import type { GatewayEvent } from '../events.ts';
import { UptimeChecker } from './host-checker.ts';

const check: UptimeCheckSpec = { url: 'http://backend:8080/health', host: 'backend:8080', method: 'GET', headers: {} };
const api = (id: string, checks = [check]): ApiSpec => ({ id, orgId: 'org', uptime: { checks, skipDownHosts: true } }) as ApiSpec;

function checker(answers: (number | Error)[]) {
  const events: Omit<GatewayEvent, 'timestamp'>[] = [];
  const sent: UptimeCheckSpec[] = [];
  const settings = {
    disable: false,
    poller_group: '',
    config: { failure_trigger_sample_size: 2, time_wait: 3600, checker_pool_size: 2, enable_uptime_analytics: false },
  };
  const uptime = new UptimeChecker(settings, { emit: (event) => events.push(event) }, pino({ level: 'silent' }), async (spec) => {
    sent.push(spec);
    const answer = answers.shift() ?? 200;
    if (answer instanceof Error) throw answer;
    return answer;
  });
  return { uptime, events, sent };
}

describe('uptime checker', () => {
  it('marks a host down after the sample size of failures, once per API, and up after as many successes', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const { uptime, events, sent } = checker([refused, 200, 503, 200, 200]);
    uptime.use([api('a'), api('b')]);
    await uptime.stop(); // no timer: the test drives the rounds
    await uptime.runRound();
    await uptime.runRound(); // a success before the sample is reached does not reset the count
    expect(uptime.isDown('backend:8080')).toBe(false);
    await uptime.runRound(); // 503: not healthy
    expect(uptime.isDown('backend:8080')).toBe(true);
    expect(sent).toHaveLength(3); // one check shared by both APIs
    expect(events.map((e) => [e.type, e.api_id, e.message])).toEqual([
      ['HostDown', 'a', 'Uptime test failed'],
      ['HostDown', 'b', 'Uptime test failed'],
    ]);
    expect(events[0]!.meta).toEqual({ host: 'backend:8080', url: check.url, reason: 'answered 503' });
    await uptime.runRound();
    expect(uptime.isDown('backend:8080')).toBe(true);
    await uptime.runRound();
    expect(uptime.isDown('backend:8080')).toBe(false);
    expect(events.slice(2).map((e) => [e.type, e.api_id, e.message])).toEqual([
      ['HostUp', 'a', 'Uptime test succeeded'],
      ['HostUp', 'b', 'Uptime test succeeded'],
    ]);
  });

  it('forgets a down host when a reload drops its check', async () => {
    const { uptime } = checker([500, 500]);
    uptime.use([api('a')]);
    await uptime.stop();
    await uptime.runRound();
    await uptime.runRound();
    expect(uptime.isDown('backend:8080')).toBe(true);
    uptime.use([api('a', [])]);
    expect(uptime.isDown('backend:8080')).toBe(false);
  });
});

describe('uptime checker shared by worker threads', () => {
  it('the prober publishes its hosts down (first round, then each change); a follower sends nothing and answers from them', async () => {
    const published: string[][] = [];
    let relay: (down: string[]) => void = () => undefined;
    const settings = {
      disable: false,
      poller_group: '',
      config: { failure_trigger_sample_size: 1, time_wait: 3600, checker_pool_size: 1, enable_uptime_analytics: false },
    };
    const answers = [200, 500, 500, 200];
    const proberSent: string[] = [];
    const followerSent: string[] = [];
    const prober = new UptimeChecker(
      settings,
      { emit: () => undefined },
      pino({ level: 'silent' }),
      async (spec) => (proberSent.push(spec.url), answers.shift() ?? 200),
      { probes: true, publish: (down) => (published.push(down), relay(down)), follow: () => undefined },
    );
    const follower = new UptimeChecker(settings, { emit: () => undefined }, pino({ level: 'silent' }), async (spec) => (followerSent.push(spec.url), 200), {
      probes: false,
      publish: () => undefined,
      follow: (listener) => (relay = listener),
    });
    for (const uptime of [prober, follower]) {
      uptime.use([api('a')]);
      await uptime.stop();
    }
    await prober.runRound();
    await follower.runRound();
    expect(published).toEqual([[]]);
    await prober.runRound();
    expect(follower.isDown('backend:8080')).toBe(true);
    await prober.runRound(); // still down: nothing new to say
    await prober.runRound();
    expect(follower.isDown('backend:8080')).toBe(false);
    expect(published).toEqual([[], ['backend:8080'], []]);
    expect(proberSent).toHaveLength(4);
    expect(followerSent).toEqual([]);
  });
});
