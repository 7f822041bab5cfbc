// No client input freezes the gateway (issue 23, item 1), through a real gateway process: requests built to make
// backtracking regular expressions and pairwise `uniqueItems` explode (JSON Schema `pattern` / `patternProperties`,
// URL rewrite patterns and payload triggers, basic auth's credentials-from-body, `uniqueItems`) cost the gateway
// about what a plain request of the same size costs: at most MAX_CPU_RATIO times its CPU per request, where a
// backtracking engine spent about a minute on one request and ajv's pairwise uniqueItems half a second. CPU time
// (every thread of the gateway's process tree, /proc schedstat) rather than the wall clock: the probes of another
// API this test timed before waited for the machine's other tenants as much as for the gateway. And a definition
// using what RE2 cannot match in linear time (lookaround, a backreference) is refused when it loads, naming the
// field.
import { beforeAll, describe, expect, it } from 'vitest';
import { addApi, classicApi, type HttpResult, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { processTreeCpuNanos } from '../../support/process-tree-cpu.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

/** JavaScript's engine needs about a minute for this against `^(a|a)*$`, doubling per character. */
const EXPONENTIAL = `${'a'.repeat(30)}!`;
/** ajv's own uniqueItems compares every pair: 2 000 distinct objects blocked the event loop for 0.5-1 s here, 5 000 for 2 s. */
const DISTINCT_OBJECTS = Array.from({ length: 2_000 }, (_, i) => ({ id: i, name: `item ${i}` }));
/** The same length, matching nothing pathologically. */
const PLAIN = 'b'.repeat(EXPONENTIAL.length);
/** A linear matcher costs 1-3x a plain request here; the backtracking ones cost 100x to 10 000x. */
const MAX_CPU_RATIO = 10;
const REQUESTS = 40;

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

  /** The gateway's CPU nanoseconds per request over REQUESTS sent one after another (after one to warm the route). */
  async function cpuPerRequest(send: () => Promise<HttpResult>): Promise<{ answers: HttpResult[]; nanos: number }> {
    await send();
    const before = processTreeCpuNanos(gw.pid()!);
    const answers: HttpResult[] = [];
    for (let i = 0; i < REQUESTS; i++) answers.push(await send());
    return { answers, nanos: (processTreeCpuNanos(gw.pid()!) - before) / REQUESTS };
  }

  /** The attack's answers, once its CPU per request is shown within MAX_CPU_RATIO of the plain request's. */
  async function expectLinear(attack: () => Promise<HttpResult>, plain: () => Promise<HttpResult>): Promise<HttpResult[]> {
    const baseline = await cpuPerRequest(plain);
    const attacked = await cpuPerRequest(attack);
    if (process.env.GW_PRINT_CPU)
      process.stderr.write(`cpu per request: plain ${(baseline.nanos / 1e3).toFixed(0)} us, attack ${(attacked.nanos / 1e3).toFixed(0)} us\n`);
    expect(attacked.nanos).toBeLessThan(baseline.nanos * MAX_CPU_RATIO);
    return attacked.answers;
  }

  it('JSON Schema pattern ^(a|a)*$: linear in CPU, the body is refused', async () => {
    const answers = await expectLinear(
      () => post('/schema/items', JSON.stringify({ name: EXPONENTIAL })),
      () => post('/schema/items', JSON.stringify({ name: PLAIN })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(REQUESTS).fill(422));
    expect(answers[0]!.json<{ error: string }>().error).toBe('payload validation failed: name: must match pattern "^(a|a)*$"');
  });

  it('JSON Schema patternProperties: linear in CPU', async () => {
    const answers = await expectLinear(
      () => post('/schema/items', JSON.stringify({ [`x${EXPONENTIAL.slice(0, -1)}`]: 'text' })),
      () => post('/schema/items', JSON.stringify({ [`x${PLAIN.slice(0, -1)}`]: 'text' })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(REQUESTS).fill(422));
  });

  it('uniqueItems over 2 000 distinct objects: linear in CPU, the items pass', async () => {
    // `name` fails, so nothing is forwarded; every keyword still runs (allErrors), uniqueItems included, and only
    // `name` is reported. The plain body holds the same objects where no keyword looks at them.
    const body = JSON.stringify({ name: 'b', items: DISTINCT_OBJECTS });
    const plainBody = JSON.stringify({ name: 'b', other: DISTINCT_OBJECTS });
    const answers = await expectLinear(
      () => post('/schema/items', body),
      () => post('/schema/items', plainBody),
    );
    expect(new Set(answers.map((a) => a.json<{ error: string }>().error))).toEqual(new Set(['payload validation failed: name: must match pattern "^(a|a)*$"']));
    const duplicate = await post('/schema/items', JSON.stringify({ items: [...DISTINCT_OBJECTS, { name: 'item 9', id: 9 }] }));
    expect(duplicate.status).toBe(422);
    expect(duplicate.json<{ error: string }>().error).toBe(
      'payload validation failed: items: must NOT have duplicate items (items ## 9 and 2000 are identical)',
    );
  });

  it('URL rewrite pattern and payload trigger: linear in CPU, the request goes on unrewritten', async () => {
    const answers = await expectLinear(
      () => post(`/rewrite/${EXPONENTIAL}`, EXPONENTIAL),
      () => post(`/rewrite/${PLAIN}`, PLAIN),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(REQUESTS).fill(200));
    expect(upstream.requests.at(-1)!.url).toBe(`/${EXPONENTIAL}`);
    await post('/rewrite/aaaa', 'aaaa');
    expect(upstream.requests.at(-1)!.url).toBe('/triggered');
  });

  it("basic auth's credentials-from-body regexp: linear in CPU, the body holds no username", async () => {
    const answers = await expectLinear(
      () => post('/basic-body/login', EXPONENTIAL),
      () => post('/basic-body/login', PLAIN),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(REQUESTS).fill(400));
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
