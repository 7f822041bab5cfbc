// bench/plugin-batches: how the JavaScript plugin pool (src/gateway/plugins/plugin-pool.ts) batches under HTTP load,
// in one process on one core: a node:http server whose every request makes one plugin call (the pre plugin of
// bench/proxy.ts setting a header) and answers 200, loaded by wrk. Printed: requests/s, CPU per request, calls per
// job message posted to a worker, and each thread's context switches per call from /proc (voluntary: it slept, a
// wake-up; involuntary: it was preempted), read around the run, nothing counted in the pool's hot path.
//   taskset -c 1 node scripts/node24.mjs node bench/plugin-batches.ts [--wrk-cpu 0] [--duration 5] [--connections 50]
//     [--rounds 3] [--default-policy (workers not under SCHED_BATCH)]
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { MessagePort } from 'node:worker_threads';
import { PluginPool } from '../src/gateway/plugins/plugin-pool.ts';
import { JOB_FIELDS } from '../src/gateway/plugins/worker-protocol.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '3' },
    'wrk-cpu': { type: 'string' },
    'default-policy': { type: 'boolean', default: false },
  },
});

const script = {
  id: 'bench-pre',
  source: `var benchPre = new TykJS.TykMiddleware.NewMiddleware({});
benchPre.NewProcessRequest(function (request, session, config) {
  request.SetHeaders['X-Bench'] = 'pre';
  return benchPre.ReturnData(request, {});
});`,
};
const request = {
  Headers: { 'User-Agent': ['wrk'], Host: ['127.0.0.1'] },
  SetHeaders: {},
  DeleteHeaders: [],
  Body: '',
  URL: '/',
  Params: {},
  AddParams: {},
  DeleteParams: [],
  ReturnOverrides: { ResponseCode: 0, ResponseError: '', ResponseBody: '', ResponseHeaders: {} },
  IgnoreBody: false,
  Method: 'GET',
  RequestURI: '/',
  Scheme: 'http',
};
const spec = { OrgID: 'org', APIID: 'bench', config_data: {} };

let posts = 0;
let postedJobs = 0;
// Counted by wrapping MessagePort.postMessage (job messages are flat arrays), so the pool carries no counter.
// eslint-disable-next-line @typescript-eslint/unbound-method -- called with its port as `this` below
const post = MessagePort.prototype.postMessage;
MessagePort.prototype.postMessage = function (message: unknown, ...rest: never[]) {
  if (Array.isArray(message)) {
    posts += 1;
    postedJobs += message.length / JOB_FIELDS; // a flat array (worker-protocol.ts JobMessage)
  }
  return post.call(this, message, ...rest);
};

const pool = new PluginPool({ workers: 2, queue: 1000, timeoutMs: 5000, memoryMb: 128, ...(values['default-policy'] ? { batchScheduling: false } : {}) });
let calls = 0;
const server = createServer((req, res) => {
  calls += 1;
  const args = JSON.stringify({ kind: 'middleware', name: 'benchPre', args: [{ ...request, URL: req.url }, {}, spec] });
  void pool
    .call(script, args, () => undefined)
    .then((outcome) => {
      res.writeHead(outcome.ok ? 200 : 500, { 'content-length': 2 });
      res.end('ok');
    });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;

type Switches = Map<string, { voluntary: number; involuntary: number }>;
function switches(): Switches {
  const out: Switches = new Map();
  for (const tid of readdirSync('/proc/self/task')) {
    const status = readFileSync(`/proc/self/task/${tid}/status`, 'utf8');
    const name = /^Name:\s*(.*)$/m.exec(status)![1]!;
    out.set(`${tid} ${name}`, {
      voluntary: Number(/^voluntary_ctxt_switches:\s*(\d+)/m.exec(status)![1]),
      involuntary: Number(/^nonvoluntary_ctxt_switches:\s*(\d+)/m.exec(status)![1]),
    });
  }
  return out;
}

await pool.call(script, JSON.stringify({ kind: 'middleware', name: 'benchPre', args: [request, {}, spec] }), () => undefined);
for (let round = 1; round <= Number(values.rounds); round++) {
  const [before, cpu0, calls0, posts0, jobs0] = [switches(), process.cpuUsage(), calls, posts, postedJobs];
  const { stdout: out } = await promisify(execFile)(
    values['wrk-cpu'] ? 'taskset' : 'wrk',
    [...(values['wrk-cpu'] ? ['-c', values['wrk-cpu'], 'wrk'] : []), '-t1', `-c${values.connections}`, `-d${values.duration}s`, `http://127.0.0.1:${port}/`],
    { encoding: 'utf8' },
  );
  const cpu = process.cpuUsage(cpu0);
  const after = switches();
  const n = calls - calls0;
  const rps = /Requests\/sec:\s*([\d.]+)/.exec(out)![1];
  const lines = [
    `round ${round}: ${rps} req/s, ${((cpu.user + cpu.system) / n).toFixed(1)} µs CPU/request, ${(n / (posts - posts0)).toFixed(2)} calls per job message (${posts - posts0} messages, ${postedJobs - jobs0} jobs)`,
  ];
  for (const [thread, end] of after) {
    const start = before.get(thread);
    if (!start) continue;
    const [v, i] = [end.voluntary - start.voluntary, end.involuntary - start.involuntary];
    if (thread.endsWith('WorkerThread')) {
      const tid = thread.split(' ')[0]!;
      const policy = readFileSync(`/proc/self/task/${tid}/sched`, 'utf8').match(/^policy\s*:\s*(\d+)/m)?.[1];
      if (round === 1) lines.push(`  thread ${thread}: scheduling policy ${policy === '3' ? 'SCHED_BATCH' : policy}`);
    }
    if (v + i > n / 100) lines.push(`  thread ${thread}: ${(v / n).toFixed(3)} voluntary, ${(i / n).toFixed(3)} involuntary switches per call`);
  }
  console.log(lines.join('\n'));
}
server.close();
await pool.close();
