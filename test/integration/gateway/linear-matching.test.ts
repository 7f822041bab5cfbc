// No client input freezes the gateway (issue 23, item 1), through a real gateway process: while requests built to
// make backtracking regular expressions and pairwise `uniqueItems` explode run against one API (JSON Schema
// `pattern` / `patternProperties`, URL rewrite patterns and payload triggers, basic auth's credentials-from-body,
// `uniqueItems`), another API on the same gateway still answers within 100 ms (the median of the probes: the test
// machine's cores are shared, so single probes may wait for a CPU; no probe may wait a second, where a backtracking
// engine blocked for minutes). And a definition using what RE2 cannot match in linear time (lookaround, a
// backreference) is refused when it loads, naming the field.
import { beforeAll, describe, expect, it } from 'vitest';
import { addApi, classicApi, type HttpResult, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

/** JavaScript's engine needs about a minute for this against `^(a|a)*$`, doubling per character. */
const EXPONENTIAL = `${'a'.repeat(30)}!`;
/** ajv's own uniqueItems compares every pair: 2 000 distinct objects blocked the event loop for 0.5-1 s here, 5 000 for 2 s. */
const DISTINCT_OBJECTS = Array.from({ length: 2_000 }, (_, i) => ({ id: i, name: `item ${i}` }));
const PROBE_BUDGET_MS = 100;
const PROBE_CEILING_MS = 1000;
const ATTACKS = 10;

describe('client input against definition patterns and schemas', () => {
  let gw: RunningGateway;
  let upstream: Upstream;

  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway();
    const apis = [
      classicApi('probe', '/probe', upstream.url, { use_keyless: true }),
      classicApi('schema', '/schema', upstream.url, {
        use_keyless: true,
        extended_paths: {
          validate_json: [
            {
              path: '/items',
              method: 'POST',
              schema: {
                type: 'object',
                properties: { name: { type: 'string', pattern: '^(a|a)*$' }, items: { type: 'array', uniqueItems: true } },
                patternProperties: { '^x(a|aa)+$': { type: 'number' } },
              },
            },
          ],
        },
      }),
      classicApi('rewrite', '/rewrite', upstream.url, {
        use_keyless: true,
        extended_paths: {
          url_rewrites: [
            {
              path: '/{rest}',
              method: 'POST',
              match_pattern: '^/(a|a)*$',
              rewrite_to: '/matched',
              triggers: [{ on: 'any', options: { payload_matches: { match_rx: '(a|aa)+$' } }, rewrite_to: '/triggered' }],
            },
          ],
        },
      }),
      classicApi('basic-body', '/basic-body', upstream.url, {
        use_basic_auth: true,
        basic_auth: { extract_from_body: true, body_user_regexp: '^((a|a)*)$', body_password_regexp: 'p=(\\w+)' },
      }),
    ];
    for (const api of apis) await addApi(gw, api);
    expect((await gw.call('/probe/warm')).status).toBe(200);
  });

  const post = (path: string, body: string): Promise<HttpResult> => gw.call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  /**
   * Sends the attack once to warm its path (the first request through a route compiles code), then ATTACKS times in
   * a row and, for as long as they run, probes the other API one request after another. Returns the attacks'
   * answers and the probes' durations in milliseconds.
   */
  async function probedWhile(attack: () => Promise<HttpResult>): Promise<{ answers: HttpResult[]; probes: number[] }> {
    await attack();
    const answers: HttpResult[] = [];
    let attacking = true;
    const attacks = (async () => {
      try {
        for (let i = 0; i < ATTACKS; i++) answers.push(await attack());
      } finally {
        attacking = false;
      }
    })();
    const probes: number[] = [];
    do {
      const started = performance.now();
      const probe = await gw.call('/probe/ping');
      probes.push(performance.now() - started);
      expect(probe.status).toBe(200);
    } while (attacking);
    await attacks;
    return { answers, probes };
  }

  function expectAnswering(probes: number[]): void {
    const sorted = probes.toSorted((a, b) => a - b);
    if (process.env.GW_PRINT_PROBES)
      process.stderr.write(`probes: n=${sorted.length} median=${sorted[sorted.length >> 1]!.toFixed(1)} max=${sorted.at(-1)!.toFixed(1)} ms\n`);
    expect(sorted[sorted.length >> 1]).toBeLessThan(PROBE_BUDGET_MS);
    expect(sorted.at(-1)).toBeLessThan(PROBE_CEILING_MS);
  }

  it('JSON Schema pattern ^(a|a)*$: the other API answers within 100 ms, the body is refused', async () => {
    const { answers, probes } = await probedWhile(() => post('/schema/items', JSON.stringify({ name: EXPONENTIAL })));
    expectAnswering(probes);
    expect(answers.map((a) => a.status)).toEqual(Array(ATTACKS).fill(422));
    expect(answers[0]!.json<{ error: string }>().error).toBe('payload validation failed: name: must match pattern "^(a|a)*$"');
  });

  it('JSON Schema patternProperties: the other API answers within 100 ms', async () => {
    const { answers, probes } = await probedWhile(() => post('/schema/items', JSON.stringify({ [`x${EXPONENTIAL.slice(0, -1)}`]: 'text' })));
    expectAnswering(probes);
    expect(answers.map((a) => a.status)).toEqual(Array(ATTACKS).fill(422));
  });

  it('uniqueItems over 2 000 distinct objects: the other API answers within 100 ms, the items pass', async () => {
    // `name` fails, so nothing is forwarded (the upstream runs in this process and would slow the probes' clock);
    // every keyword still runs (allErrors), uniqueItems included, and only `name` is reported.
    const body = JSON.stringify({ name: 'b', items: DISTINCT_OBJECTS });
    const { answers, probes } = await probedWhile(() => post('/schema/items', body));
    expectAnswering(probes);
    expect(new Set(answers.map((a) => a.json<{ error: string }>().error))).toEqual(new Set(['payload validation failed: name: must match pattern "^(a|a)*$"']));
    const duplicate = await post('/schema/items', JSON.stringify({ items: [...DISTINCT_OBJECTS, { name: 'item 9', id: 9 }] }));
    expect(duplicate.status).toBe(422);
    expect(duplicate.json<{ error: string }>().error).toBe(
      'payload validation failed: items: must NOT have duplicate items (items ## 9 and 2000 are identical)',
    );
  });

  it('URL rewrite pattern and payload trigger: the other API answers within 100 ms, the request goes on unrewritten', async () => {
    const { answers, probes } = await probedWhile(() => post(`/rewrite/${EXPONENTIAL}`, EXPONENTIAL));
    expectAnswering(probes);
    expect(answers.map((a) => a.status)).toEqual(Array(ATTACKS).fill(200));
    const attacked = upstream.requests.filter((request) => request.url !== '/ping');
    expect(attacked.at(-1)!.url).toBe(`/${EXPONENTIAL}`);
    await post('/rewrite/aaaa', 'aaaa');
    expect(upstream.requests.at(-1)!.url).toBe('/triggered');
  });

  it("basic auth's credentials-from-body regexp: the other API answers within 100 ms, the body holds no username", async () => {
    const { answers, probes } = await probedWhile(() => post('/basic-body/login', EXPONENTIAL));
    expectAnswering(probes);
    expect(answers.map((a) => a.status)).toEqual(Array(ATTACKS).fill(400));
    expect(answers[0]!.json<{ error: string }>().error).toBe('Body do not contain username');
  });

  it('refuses at load, naming the field, the patterns RE2 cannot match in linear time', async () => {
    const refusal = async (extendedPaths: Record<string, unknown>): Promise<string> => {
      const created = await gw.admin('POST', '/gw/apis', classicApi('refused', '/refused', upstream.url, { use_keyless: true, extended_paths: extendedPaths }));
      expect(created.status).toBe(400);
      return created.json<{ message: string }>().message;
    };
    expect(
      await refusal({ validate_json: [{ path: '/a', method: 'POST', schema: { properties: { name: { type: 'string', pattern: '^(?!admin)' } } } }] }),
    ).toContain(
      'extended_paths.validate_json[0].schema is not a valid JSON Schema: pattern "^(?!admin)" is not a valid RE2 regular expression (lookaround is not supported',
    );
    expect(await refusal({ url_rewrites: [{ path: '/a', method: 'GET', match_pattern: '^/(a)\\1$', rewrite_to: '/b' }] })).toContain(
      'extended_paths.url_rewrites[0].match_pattern is not a valid RE2 regular expression (backreferences are not supported',
    );
  });
});
