// The browser end-to-end suite (CONTRIBUTING.md): one file per user journey, run by @playwright/test against the
// whole stack, started once by the global setup and shared by the two workers.
// Debian's Chromium only: no browser is ever downloaded.
import { defineConfig } from '@playwright/test';
import { artifactsPath, CHROMIUM } from './support/paths.js';
import { VIEWPORTS } from './support/viewports.js';

export default defineConfig({
  testDir: '.',
  testMatch: '*.e2e.ts',
  globalSetup: './support/global-setup.ts',
  // One stack, two browsers: a journey spends most of its time waiting (for the stack, ingestion, the network it
  // throttles), so two files at a time keep 2 cores busy; every test has its own workspace owner (fixtures.ts) and
  // none touches the stack's processes, so they cannot see each other's data.
  workers: 2,
  fullyParallel: false,
  // A flaky journey is a bug to fix, not to retry.
  retries: 0,
  forbidOnly: true,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  outputDir: artifactsPath('e2e-results'),
  reporter: [['list'], ['html', { outputFolder: artifactsPath('e2e-report'), open: 'never' }]],
  use: {
    ...VIEWPORTS.desktop,
    actionTimeout: 15_000,
    navigationTimeout: 15_000,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
