// A vitest reporter kept on every run: at the end it prints the slowest 20 test files (wall time as vitest measured
// it: setup, import and every test and hook; and CPU time of the worker and the processes it reaped, from
// test/support/cpu-time-setup.ts), then the sums. The sum of the files' wall times against the run's wall time
// says how much the files overlapped; the CPU sum says what the run would cost on an idle machine. Sums per
// project too. Last, every test that passed only on a retry (vitest.config.ts retries the process-driving projects
// once): a run stays green through one loaded moment, and the test still shows up here to be made steady. Every
// file's figures are also written to node_modules/.cache/test-file-timings.json, to sort by CPU or compare runs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { readCpuTime } from './cpu-time.ts';

const SHOWN = 20;
const TIMINGS_FILE = fileURLToPath(new URL('../../node_modules/.cache/test-file-timings.json', import.meta.url));

export interface FileTiming {
  file: string;
  project: string;
  wallMs: number;
  cpuMs: number | undefined;
  tests: number;
}

export function fileTiming(module: TestModule): FileTiming {
  const diagnostic = module.diagnostic();
  return {
    file: module.relativeModuleId,
    project: module.project.name,
    wallMs: diagnostic.environmentSetupDuration + diagnostic.prepareDuration + diagnostic.setupDuration + diagnostic.collectDuration + diagnostic.duration,
    cpuMs: module.meta().cpuMs,
    tests: [...module.children.allTests()].length,
  };
}

const seconds = (ms: number): string => (ms / 1000).toFixed(1);

/** The table and the sums, as lines. */
export function formatTimings(timings: FileTiming[], runWallMs: number, runCpuMs: number | undefined): string[] {
  const slowest = [...timings].sort((a, b) => b.wallMs - a.wallMs).slice(0, SHOWN);
  const width = Math.max(4, ...slowest.map((timing) => timing.file.length));
  const lines = [
    `Slowest ${slowest.length} test files of ${timings.length}:`,
    `  ${'wall s'.padStart(7)} ${'cpu s'.padStart(7)} ${'tests'.padStart(5)}  ${'file'.padEnd(width)}  project`,
  ];
  for (const timing of slowest) {
    const cpu = timing.cpuMs === undefined ? '-' : seconds(timing.cpuMs);
    lines.push(
      `  ${seconds(timing.wallMs).padStart(7)} ${cpu.padStart(7)} ${String(timing.tests).padStart(5)}  ${timing.file.padEnd(width)}  ${timing.project}`,
    );
  }
  const wallSum = timings.reduce((sum, timing) => sum + timing.wallMs, 0);
  const cpuSum = timings.reduce((sum, timing) => sum + (timing.cpuMs ?? 0), 0);
  const tests = timings.reduce((sum, timing) => sum + timing.tests, 0);
  const projects = [...new Set(timings.map((timing) => timing.project))].sort();
  const byProject = projects.map((project) => {
    const own = timings.filter((timing) => timing.project === project);
    const wall = own.reduce((sum, timing) => sum + timing.wallMs, 0);
    const cpu = own.reduce((sum, timing) => sum + (timing.cpuMs ?? 0), 0);
    return `${project} ${own.length} files, wall ${seconds(wall)} s, cpu ${seconds(cpu)} s`;
  });
  lines.push(
    `By project: ${byProject.join('; ')}.`,
    `Files: ${timings.length}, tests: ${tests}. Sum over files: wall ${seconds(wallSum)} s, cpu ${seconds(cpuSum)} s. ` +
      `Run: wall ${seconds(runWallMs)} s` +
      (runCpuMs === undefined ? '.' : `, cpu of vitest and every process it reaped so far ${seconds(runCpuMs)} s.`),
  );
  return lines;
}

export interface RetriedTest {
  /** The file, then the describe blocks and the test's name. */
  name: string;
  retries: number;
}

export function retriedTest(test: TestCase): RetriedTest {
  return { name: `${test.module.relativeModuleId} > ${test.fullName}`, retries: test.diagnostic()?.retryCount ?? 0 };
}

/** The tests that passed only after failing, as lines (none when every test passed at once). */
export function formatRetried(retried: RetriedTest[]): string[] {
  if (retried.length === 0) return [];
  return [
    `Passed only after a retry (${retried.length}): each failed first, so each is unsteady under this run's load or has an intermittent defect:`,
    ...retried.map((test) => `  ${test.name} (${test.retries === 1 ? '1 retry' : `${test.retries} retries`})`),
  ];
}

export default class DurationsReporter implements Reporter {
  private vitest: Vitest | undefined;
  private startedAt = 0;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    this.startedAt = performance.now();
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const timings = testModules.filter((module) => module.state() !== 'skipped' && module.state() !== 'pending').map(fileTiming);
    if (timings.length === 0) return;
    const cpu = readCpuTime();
    const lines = formatTimings(timings, performance.now() - this.startedAt, cpu && cpu.selfMs + cpu.childrenMs);
    const retried = testModules.flatMap((module) => [...module.children.allTests('passed')].filter((test) => test.diagnostic()?.flaky)).map(retriedTest);
    lines.push(...formatRetried(retried));
    this.vitest?.logger.log(['', ...lines].join('\n'));
    mkdirSync(dirname(TIMINGS_FILE), { recursive: true });
    writeFileSync(TIMINGS_FILE, `${JSON.stringify(timings, null, 1)}\n`);
  }
}
