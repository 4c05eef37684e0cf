// The browser tests (web/e2e/*.spec.ts) under @playwright/test: Debian's
// Chromium against one `koma serve --port 0 --memory` that e2e/global-setup.ts
// starts for the whole run.
//
//   npm run e2e                      every test
//   npm run e2e -- -g spear          the tests whose title (or file) matches
//   KOMA_BIN=path/to/koma npm run e2e
//
// The binary is $KOMA_BIN, else $CARGO_TARGET_DIR/debug/koma, else
// ../target/debug/koma (cargo build -p koma).

import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_FLAGS, VIEWPORT } from './e2e/env';

export default defineConfig({
  testDir: './e2e',
  testMatch: '*.spec.ts',
  // Failure screenshots and saved records; git ignores it, and Playwright
  // empties it at the start of each run.
  outputDir: './e2e/output',
  globalSetup: './e2e/global-setup.ts',
  // One worker, the tests in order: they share one server and, within a
  // worker, one browser context (fixtures.ts); the machine has two cores and
  // the computer's replies must not starve.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // The slowest test takes a few seconds; waits inside the tests are shorter
  // and say what they waited for, so this only catches a hang.
  timeout: 60_000,
  expect: { timeout: 5_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: VIEWPORT,
    acceptDownloads: true,
    actionTimeout: 15_000,
    navigationTimeout: 15_000,
    // No browser download: Debian's Chromium, checked for in global-setup.ts.
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_FLAGS },
    // fixtures.ts takes its own screenshots of failures, of every machine's page.
    screenshot: 'off',
    trace: 'off',
    video: 'off',
  },
});
