// The fixtures every spec uses, in place of Playwright's own `context` and
// `page`:
//
// - `context`: one browser context for the whole worker, shared by all tests
//   (one localStorage, like one browser: the variant, clock and piece set
//   chosen, and the seats held, carry from test to test);
// - `page`: a new page in it, at the server's `#/play` once the page has its
//   new game (start.spec.ts opens the start page itself), closed after the test (resized first if the test asks another
//   viewport with test.use);
// - `machines`: pages on other machines, each in a fresh context (its own
//   localStorage, so its own seats), closed after the test;
// - `komaUrl`: the server's address, from global-setup.ts.
//
// An error thrown in any of these pages fails the test. A failing test leaves
// a screenshot of each page (failure.png, failure-<machine>.png) in its
// directory under web/e2e/output/.

import { test as base, expect, type Browser, type BrowserContext, type Page, type TestInfo } from '@playwright/test';
import { URL_VARIABLE, VIEWPORT } from './env';

/** Other machines for one test: pages in fresh browser contexts, closed after it. */
export class Machines {
  private readonly opened: { context: BrowserContext; page: Page; name: string }[] = [];

  constructor(
    private readonly browser: Browser,
    private readonly url: string,
    private readonly errors: string[],
  ) {}

  /** A page on another machine, opened at `address`: a whole link, or a `#/…` address on this server. */
  async open(address: string, name: string): Promise<Page> {
    const context = await this.browser.newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    this.opened.push({ context, page, name });
    page.on('pageerror', (error) => this.errors.push(`${name}: ${error.message}`));
    await page.goto(address.startsWith('#') ? this.url + address : address);
    await page.waitForFunction(() => !!document.body.dataset.gameId, null, { timeout: 10_000 });
    return page;
  }

  async screenshots(testInfo: TestInfo): Promise<void> {
    for (const { page, name } of this.opened) await failureScreenshot(page, testInfo, `failure-${name}.png`);
  }

  async close(): Promise<void> {
    for (const { context } of this.opened.splice(0)) await context.close().catch(() => {});
  }
}

/** A picture of the whole page, in the test's directory under web/e2e/output/ (the report names it). */
async function failureScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.screenshot({ path: testInfo.outputPath(name), fullPage: true }).catch(() => {
    // A page that is gone has nothing to show.
  });
}

/** Whether the test failed, or will fail for the errors its pages threw. */
const failed = (testInfo: TestInfo, errors: string[] = []) => testInfo.status !== testInfo.expectedStatus || errors.length > 0;

interface TestFixtures {
  /** The errors thrown in this test's pages; any fails the test. */
  pageErrors: string[];
  machines: Machines;
}

interface WorkerFixtures {
  komaUrl: string;
  sharedContext: BrowserContext;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  komaUrl: [
    async ({}, use) => {
      const url = process.env[URL_VARIABLE];
      if (!url) throw new Error(`${URL_VARIABLE} is not set: run the tests with playwright test (global-setup.ts starts the server)`);
      await use(url);
    },
    { scope: 'worker' },
  ],

  sharedContext: [
    async ({ browser, komaUrl }, use) => {
      const context = await browser.newContext({ acceptDownloads: true, viewport: VIEWPORT, baseURL: komaUrl });
      await use(context);
      await context.close();
    },
    { scope: 'worker' },
  ],

  context: async ({ sharedContext }, use) => {
    await use(sharedContext);
  },

  pageErrors: async ({}, use, testInfo) => {
    const errors: string[] = [];
    await use(errors);
    // After the pages' own teardown, so that every page has been heard.
    if (!failed(testInfo)) expect(errors, 'errors in the page').toEqual([]);
  },

  page: async ({ context, viewport, komaUrl, pageErrors }, use, testInfo) => {
    const page = await context.newPage();
    if (viewport && (viewport.width !== VIEWPORT.width || viewport.height !== VIEWPORT.height)) await page.setViewportSize(viewport);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    try {
      // `#/play`: a new game as the new-game form stands (the form is
      // remembered by the browser); the bare address is the start page.
      await page.goto(`${komaUrl}#/play`);
      await page.waitForFunction(() => !!document.body.dataset.gameId, null, { timeout: 10_000 });
    } catch (error) {
      await failureScreenshot(page, testInfo, 'failure.png');
      await page.close().catch(() => {});
      throw error;
    }
    await use(page);
    if (failed(testInfo, pageErrors)) await failureScreenshot(page, testInfo, 'failure.png');
    await page.close().catch(() => {});
  },

  machines: async ({ browser, komaUrl, pageErrors }, use, testInfo) => {
    const machines = new Machines(browser, komaUrl, pageErrors);
    await use(machines);
    if (failed(testInfo, pageErrors)) await machines.screenshots(testInfo);
    await machines.close();
  },
});

export { expect };
