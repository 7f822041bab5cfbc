// Test projects. `unit` is the fast loop: colocated *.test.ts beside the code, no processes, no network beyond
// loopback servers a test starts itself. The integration files talk to real gateway, Redis and PostgreSQL
// processes; those that reach the Kubernetes control plane (inject('kubeconfig') / inject('binDir'), directly or
// through test/support, decided by reading them: test/support/control-plane-users.ts) form `integration`, whose
// global setup starts one control plane per run (test/support/global-setup.ts, unless GW_TEST_KUBECONFIG names an
// existing cluster); the others form `integration-standalone`, which starts none. `e2e` talks to the control plane
// too. All projects share one pool of workers, fed the longest files first. `browser` drives the dashboard's web UI in Debian's Chromium through playwright-core against real dashboard
// processes on PostgreSQL (no control plane; the UI is built first). Every run ends with the slowest 20 files.
import { globSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { controlPlaneUsers } from './test/support/control-plane-users.ts';
import DurationsReporter from './test/support/durations-reporter.ts';
import LongestFirstSequencer from './test/support/longest-first-sequencer.ts';

const INTEGRATION = 'test/integration/**/*.test.ts';
const usesControlPlane = controlPlaneUsers('test');
const standaloneIntegration = globSync(INTEGRATION).filter((file) => !usesControlPlane.uses(file));
// In every worker: its CPU time per file for the table, and loopback ports of its own (test/support/worker-ports.ts).
const setupFiles = ['test/support/cpu-time-setup.ts', 'test/support/worker-ports.ts'];

// Node's compile cache for every Node process of the run (vitest's workers and the gw gateway, dashboard and
// operator processes the tests start, which inherit the environment): a process that loads modules another one
// already compiled skips parsing, type stripping and compiling them (gw gateway's modules: about 1.0 s of CPU per
// start without it, 0.55 s with it). Entries are checked against the source, so a stale one is only a miss.
process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL('node_modules/.cache/node-compile-cache', import.meta.url));

// Every gw gateway a test starts runs one worker thread (its default is one per core), as the suite was written
// for and so that it costs no more CPU than before; a test of several workers sets GW_GATEWAY_WORKERS itself.
process.env.GW_GATEWAY_WORKERS ??= '1';

// Files in parallel: two per core (vitest's default is one fewer than the cores, a single worker on two). Most
// integration files spend their time waiting on the processes they start (their CPU time is a third to a half of
// their wall time), so one per core leaves the cores idle. Capped for the processes and memory each file holds.
// `--maxWorkers` or VITEST_MAX_WORKERS overrides it.
const WORKERS = Math.min(12, 2 * availableParallelism());

// The projects that drive real processes retry a failed test once. On a CI machine shared with other work (load
// average 13 on two cores seen) a process start or a broker's answer now and then takes longer than any limit a test
// can sensibly set, and one such moment in 2 400 tests failed the whole run. A test that fails twice fails the run; one
// that passes only on its retry is listed at the end of the run (test/support/durations-reporter.ts) to be made
// steady. Unit tests start no processes and are never retried. Failures in beforeAll are not retried by vitest:
// the process starters' limits cover those (test/support/gw-process.ts).
const PROCESS_TEST_RETRY = 1;

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    // The longest files first across all projects (vitest's own order takes the projects one after another).
    sequence: { sequencer: LongestFirstSequencer },
    reporters: ['default', new DurationsReporter()],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'test/support/**/*.test.ts'],
          setupFiles,
          testTimeout: 10_000,
          // A few unit files open an in-memory PGlite (WebAssembly PostgreSQL) and migrate it in beforeAll: seconds
          // when the cores are shared with two files each.
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          retry: PROCESS_TEST_RETRY,
          include: [INTEGRATION],
          exclude: standaloneIntegration,
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles,
          testTimeout: 120_000,
          hookTimeout: 600_000,
        },
      },
      {
        test: {
          name: 'integration-standalone',
          retry: PROCESS_TEST_RETRY,
          include: standaloneIntegration,
          setupFiles,
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'browser',
          retry: PROCESS_TEST_RETRY,
          include: ['test/browser/**/*.test.ts'],
          globalSetup: ['test/support/build-ui-setup.ts'],
          setupFiles,
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'e2e',
          retry: PROCESS_TEST_RETRY,
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles,
          testTimeout: 300_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
