// Test projects. `unit` is the fast loop: colocated *.test.ts beside the code, no processes, no network beyond
// loopback servers a test starts itself. `integration` and `e2e` talk to a real Kubernetes control plane (one per
// run, started by test/support/global-setup.ts unless GW_TEST_KUBECONFIG names an existing cluster) and to real
// gateway, Redis and PostgreSQL processes. `browser` drives the dashboard's web UI in Debian's Chromium through
// playwright-core against real dashboard processes on PostgreSQL (no control plane; the UI is built first).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: process.env.CI ? ['default'] : ['default'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'test/support/**/*.test.ts'],
          testTimeout: 10_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 600_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          globalSetup: ['test/support/build-ui-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
