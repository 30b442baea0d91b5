// The suite's `test`: Playwright's, with the shared stack, a fresh workspace owner per test, per-journey
// screenshots, and a page that fails the test on an uncaught error. Journeys import `test` and `expect` from here.
import { mkdirSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { test as base, expect, type Page, type TestInfo } from '@playwright/test';
import { Api, createOwner, type Account } from './api.js';
import { artifactsPath } from './paths.js';
import { stackInfo, type StackInfo } from './stack.js';
import { VIEWPORTS, type ViewportName } from './viewports.js';

export { expect };

interface Fixtures {
  /** The screen size the test runs at (set by forEachViewport); screenshots of other sizes than desktop say it. */
  viewportName: ViewportName;
  /** A fresh user owning a fresh workspace with the demo's two projects; terms not accepted yet (api.ts). */
  owner: Account;
  /** The API, logged in as `owner`. */
  api: Api;
  /**
   * Saves a full-page screenshot to artifacts/screenshots/<journey>/<name>[-<viewport>].png, <journey> being the
   * file name without .e2e.ts. `target` defaults to the test's page (pass another page, e.g. a logged-out one).
   */
  shot: (name: string, target?: Page) => Promise<void>;
}

interface WorkerFixtures {
  /** The stack started by the global setup. */
  stack: StackInfo;
}

/** The journey a test belongs to: its file name without .e2e.ts. */
export const journeyOf = (testInfo: TestInfo) => basename(testInfo.file).replace(/\.e2e\.ts$/, '');

function screenshotPath(testInfo: TestInfo, viewport: ViewportName, name: string): string {
  const path = artifactsPath(
    'screenshots',
    journeyOf(testInfo),
    `${name}${viewport === 'desktop' ? '' : `-${viewport}`}.png`,
  );
  mkdirSync(dirname(path), { recursive: true });
  return path;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  stack: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern
    async ({}, use) => {
      await use(stackInfo());
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ stack }, use) => {
    await use(stack.baseUrl);
  },
  viewportName: ['desktop', { option: true }],
  owner: async ({ stack }, use) => {
    await use(await createOwner(stack));
  },
  api: async ({ stack, owner }, use) => {
    await use(await Api.login(stack.baseUrl, owner, stack));
  },
  page: async ({ page, viewportName }, use, testInfo) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await use(page);
    if (testInfo.status !== testInfo.expectedStatus) {
      // Beside the journey's screenshots, whatever Playwright also keeps in artifacts/e2e-results/.
      const name = `failed-${testInfo.title.replace(/[^\w-]+/g, '-').slice(0, 60)}`;
      await page
        .screenshot({ path: screenshotPath(testInfo, viewportName, name), fullPage: true })
        .catch(() => undefined);
    }
    expect(errors, 'no uncaught errors in the page').toEqual([]);
  },
  shot: async ({ page, viewportName }, use, testInfo) => {
    await use(async (name, target = page) => {
      await target.screenshot({ path: screenshotPath(testInfo, viewportName, name), fullPage: true });
    });
  },
});

/**
 * Declares the tests of `body` once per screen size, each group titled "at <name> width" and run in a context of
 * that size (VIEWPORTS). `body` receives the name, e.g. to skip a step on phones:
 *
 *   forEachViewport(['phone', 'desktop'], (size) => {
 *     test('a collector sees the list', async ({ page }) => { ... });
 *   });
 */
export function forEachViewport(names: readonly ViewportName[], body: (name: ViewportName) => void): void {
  for (const name of names) {
    test.describe(`at ${name} width`, () => {
      test.use({ ...VIEWPORTS[name], viewportName: name });
      body(name);
    });
  }
}
