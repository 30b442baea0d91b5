// Test tiers (CONTRIBUTING.md): unit beside the code, integration against real infrastructure, API end-to-end on the
// whole stack. Browser end-to-end tests run with @playwright/test (web/e2e/).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'packages/sampler/test/**/*.test.ts',
            'services/*/src/**/*.test.ts',
            'gateway/src/**/*.test.ts',
            'scripts/src/**/*.test.ts',
          ],
        },
      },
      'web/vitest.config.ts',
      {
        test: {
          name: 'integration',
          include: [
            'packages/*/test/**/*.int.test.ts',
            'services/*/test/**/*.int.test.ts',
            'services/*/test/**/*.service.test.ts',
            'scripts/test/**/*.int.test.ts',
            'deploy/test/**/*.int.test.ts',
          ],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two files at a time: each has its own database (testInfra) and stream prefix.
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['gateway/test/**/*.e2e.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 240_000,
          // Two files at a time, each on its own stack, database and stream prefix (harness.ts) and its own quarter of
          // the port range (net.ts): a file spends half its time waiting (processes starting, ingestion, timers), so
          // two of them keep both cores busy and the tier takes about half as long.
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
    ],
  },
});
