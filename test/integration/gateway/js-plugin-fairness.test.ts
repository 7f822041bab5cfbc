// Fairness of JavaScript plugins between APIs through a real gateway (plugins/plugin-pool.ts): one API whose pre
// plugin loops until jsvm_timeout on every plugin worker does not hold up another API's plugin calls; they are
// answered 200 (on an extra worker) long before the loops' 500s. Tyk runs each otto call on a goroutine of its own.
import { beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

const WORKERS = 2;
const middleware = (name: string, body: string) =>
  `var ${name} = new TykJS.TykMiddleware.NewMiddleware({});\n${name}.NewProcessRequest(function (request, session, config) {\n${body}\n});`;

describe('JavaScript plugins: one API looping on every worker', () => {
  let gw: RunningGateway;
  let upstream: Upstream;

  beforeAll(async () => {
    upstream = await startUpstream();
    // The loops' time limit must outlast an extra worker's start, which took over 2 s in a loaded full run.
    gw = await startGateway({ enable_jsvm: true, jsvm_timeout: 15, jsvm_workers: WORKERS });
    const apis = [
      classicApi('js-spin', '/js-spin', upstream.url, {
        use_keyless: true,
        custom_middleware: { driver: 'otto', pre: [{ name: 'spin', code: middleware('spin', "log('spinning ' + request.URL); for (;;) {}") }] },
      }),
      classicApi('js-other', '/js-other', upstream.url, {
        use_keyless: true,
        custom_middleware: {
          driver: 'otto',
          pre: [{ name: 'mark', code: middleware('mark', "request.SetHeaders['X-Other'] = 'yes'; return mark.ReturnData(request, {});") }],
        },
      }),
    ];
    for (const api of apis) expect((await gw.admin('POST', '/gw/apis', api)).status).toBe(200);
    await gw.reload();
  });

  it("answers another API's plugin calls 200 before the looping API's first 500", async () => {
    // A call once waited 60 s here in a loaded full run (an extra worker's first call ran past stuckMs; the call taken
    // back from it was skipped again each time it was handed back: plugin-fairness.test.ts). The log says what ran.
    onTestFailed(() => void process.stderr.write(`gateway log (js-plugin-fairness):\n${gw.output().slice(-8000)}\n`));
    let loopsAnswered = 0;
    const loops = Array.from({ length: WORKERS }, (_, n) =>
      gw.call(`/js-spin/${n}`).then((result) => {
        loopsAnswered += 1;
        return result;
      }),
    );
    // Every worker runs a loop (each logs before it spins).
    await waitUntil('a loop on every plugin worker', () => gw.output().split('spinning /').length - 1 === WORKERS);
    const others = await Promise.all(Array.from({ length: 4 }, (_, n) => gw.call(`/js-other/${n}`)));
    expect(others.map((result) => result.status)).toEqual([200, 200, 200, 200]);
    expect(loopsAnswered).toBe(0);
    expect(upstream.requests.filter((echo) => echo.headers['x-other'] === 'yes')).toHaveLength(4);
    expect((await Promise.all(loops)).map((result) => result.status)).toEqual([500, 500]);
  });
});
