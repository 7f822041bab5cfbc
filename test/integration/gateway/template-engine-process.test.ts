// The native template engine process behind a real gateway (src/gateway/template/native-executor.ts): it runs as
// the gateway's child, a request in flight when it crashes gets 500 `Body transform failure` at once (never a hang)
// and the next request is served by a restarted process, and it does not outlive its gateway, even one killed with
// SIGKILL. With either runner (the native process, or the WebAssembly worker thread when GW_TEMPLATE_ENGINE_NATIVE
// is off), a gateway that has run templates still exits on SIGTERM.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicApi, errorBody, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { builtTemplateEngine } from '../../support/template-engine.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** Alive and not a zombie (an orphan may wait a while for a reaper in a container). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** User + system CPU time a process has used, in clock ticks (/proc/<pid>/stat fields 14 and 15). */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /s, '')
    .split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** The pid of the template engine process under `root` (bin/gw may run the real Node as its own child). */
function enginePid(root: number): number | undefined {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(/\nPPid:\s+(\d+)/.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    try {
      const program = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]!;
      if (program.endsWith('/template-engine') && running(pid)) return pid;
    } catch {
      continue;
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return undefined;
}

describe('the native template engine process', () => {
  let upstream: Upstream;
  let gw: RunningGateway;

  beforeAll(async () => {
    process.env.GW_TEMPLATE_ENGINE = builtTemplateEngine();
    upstream = await startUpstream();
    gw = await startGateway({ transform_timeout_ms: 600_000 });
    const transform = (path: string, template: string) => ({
      path,
      method: 'POST',
      template_data: { input_type: 'json', template_mode: 'blob', template_source: b64(template) },
    });
    const api = classicApi('engine-process', '/ep', upstream.url, {
      use_keyless: true,
      extended_paths: {
        transform: [transform('/shape', '{"id":{{.id}},"name":{{.name | jsonMarshal}}}'), transform('/loops', '{{range $i := 100000000000}}{{end}}')],
      },
    });
    expect((await gw.admin('POST', '/gw/apis', api)).status).toBe(200);
    await gw.reload();
  });
  afterAll(() => upstream?.close());

  it('a crash answers the request in flight with 500 at once; the next request is served by a restarted process', async () => {
    const first = await waitUntil('the engine process', () => enginePid(gw.pid()!));
    const inFlight = gw.call('/ep/loops', { method: 'POST', body: '{"secret":"secret-crash-body"}' });
    // The loop runs for far longer than this test (its limit is 600 s): only the crash can answer it. It is running
    // once the engine has spent CPU time well beyond its idle start.
    await waitUntil('the engine to run the looping template', () => cpuTicks(first) > 20);
    process.kill(first, 'SIGKILL');
    const answered = await inFlight;
    expect(answered.status).toBe(500);
    expect(answered.text).toBe(errorBody('Body transform failure'));
    await waitUntil('the failure logged', () => gw.output().includes('the template engine process stopped (killed by SIGKILL)'));
    expect(gw.output()).not.toContain('secret-crash-body');

    const after = await gw.call('/ep/shape', { method: 'POST', body: '{"id":7,"name":"<ada>","extra":true}' });
    expect(after.status).toBe(200);
    expect(upstream.requests.at(-1)!.body).toBe('{"id":7,"name":"\\u003cada\\u003e"}');
    const second = enginePid(gw.pid()!);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
  });

  it('does not outlive its gateway killed with SIGKILL', async () => {
    const engine = await waitUntil('the engine process', () => enginePid(gw.pid()!));
    await gw.stop('SIGKILL');
    await waitUntil(`template engine ${engine} to exit`, () => !running(engine), { timeoutMs: 10_000 });
  });
});

describe.each([
  ['native engine process', {}],
  ['WebAssembly worker', { GW_TEMPLATE_ENGINE_NATIVE: 'off' }],
])('a gateway running templates on the %s', (_runner, env: Record<string, string>) => {
  it('exits on SIGTERM after serving a transform', async () => {
    process.env.GW_TEMPLATE_ENGINE = builtTemplateEngine();
    const upstream = await startUpstream();
    try {
      const gw = await startGateway({}, { env });
      const transform = {
        path: '/shape',
        method: 'POST',
        template_data: { input_type: 'json', template_mode: 'blob', template_source: b64('{"id":{{.id}}}') },
      };
      expect(
        (await gw.admin('POST', '/gw/apis', classicApi('exits', '/exits', upstream.url, { use_keyless: true, extended_paths: { transform: [transform] } })))
          .status,
      ).toBe(200);
      await gw.reload();
      expect((await gw.call('/exits/shape', { method: 'POST', body: '{"id":3,"x":1}' })).status).toBe(200);
      expect(upstream.requests.at(-1)!.body).toBe('{"id":3}');
      // A process that does not exit is killed with SIGKILL after the grace period: exit code null.
      expect(await gw.stop('SIGTERM')).toBe(0);
    } finally {
      await upstream.close();
    }
  });
});
