// The guide's gallery (docs/GUI.md, "Every game, both languages, both
// themes"): each game after a few moves, in English and Japanese, light and
// dark, on a wide window and on a phone, written to
// docs/screenshots/gallery/. Each picture comes from a browser context of its
// own, whose language and theme are set before the page loads, so nothing
// leaks into the other tests' shared context. The pictures are JPEG: 32 of
// them as PNG would weigh several megabytes.

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { clickMove, newGame, waitBody } from './helpers';
import { docsShots } from './env';

const gallery = join(docsShots, 'gallery');

// 64 pages take about four minutes: the gallery is written again when asked
// (`KOMA_GALLERY=1 npx playwright test gallery`, after a change to the look),
// not in every run of the suite, whose other specs check the same views.
test.skip(!process.env.KOMA_GALLERY, 'the gallery is written with KOMA_GALLERY=1');

/** A few moves of each game, as square pairs to click. */
const OPENINGS: Record<string, [string, string][]> = {
  spear: [
    ['5d', '5c'],
    ['1b', '1c'],
  ],
  minishogi: [
    ['5d', '5c'],
    ['1b', '1c'],
  ],
  shogi: [
    ['7g', '7f'],
    ['3c', '3d'],
    ['2g', '2f'],
  ],
  pawns: [
    ['e2', 'e4'],
    ['d7', 'd5'],
    ['e4', 'd5'],
  ],
};

const SIZES = {
  wide: { width: 1280, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

/** A page in a context of its own, in this language and theme. */
async function openPage(browser: Browser, komaUrl: string, size: keyof typeof SIZES, language: string, theme: string): Promise<Page> {
  const context = await browser.newContext({ viewport: SIZES[size], baseURL: komaUrl });
  await context.addInitScript(
    ([language, theme]) => {
      localStorage.setItem('koma.language', language);
      localStorage.setItem('koma.theme', theme);
    },
    [language, theme],
  );
  const page = await context.newPage();
  await page.goto(`${komaUrl}#/play`);
  await page.waitForFunction(() => !!document.body.dataset.gameId, null, { timeout: 10_000 });
  return page;
}

interface Look {
  size: keyof typeof SIZES;
  language: string;
  theme: string;
}

/**
 * For each size, language and theme: a page of its own in that look, the
 * game played to its opening, handed to `picture`, then closed.
 */
async function eachLook(browser: Browser, komaUrl: string, variant: string, picture: (page: Page, look: Look) => Promise<void>): Promise<void> {
  await mkdir(gallery, { recursive: true });
  const moves = OPENINGS[variant];
  for (const size of ['wide', 'phone'] as const) {
    for (const language of ['en', 'ja']) {
      for (const theme of ['light', 'dark']) {
        const page = await openPage(browser, komaUrl, size, language, theme);
        try {
          await newGame(page, variant);
          for (const [from, to] of moves) await clickMove(page, from, to);
          await waitBody(page, 'ply', moves.length);
          expect(await page.evaluate(() => document.documentElement.lang), 'the page language').toBe(language);
          expect(await page.evaluate(() => document.documentElement.dataset.theme), 'the theme').toBe(theme);
          await picture(page, { size, language, theme });
        } finally {
          await page.context().close();
        }
      }
    }
  }
}

/** The window (or the whole page) as gallery/`name`.jpg, the pointer and focus out of the way. */
async function shoot(page: Page, name: string, fullPage = false): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur?.());
  await page.mouse.move(1, 1);
  await page.waitForTimeout(300); // animations end
  await page.screenshot({ path: join(gallery, `${name}.jpg`), type: 'jpeg', quality: 75, fullPage });
}

for (const variant of Object.keys(OPENINGS)) {
  test(`gallery: ${variant} in both languages and themes, wide and on a phone`, async ({ browser, komaUrl }) => {
    test.setTimeout(120_000);
    await eachLook(browser, komaUrl, variant, (page, { size, language, theme }) => shoot(page, `${variant}-${language}-${theme}-${size}`));
  });
}

for (const variant of Object.keys(OPENINGS)) {
  test(`gallery: ${variant} analysed and reviewed, in both languages and themes, wide and on a phone`, async ({ browser, komaUrl }) => {
    test.setTimeout(240_000);
    await eachLook(browser, komaUrl, variant, async (page, { size, language, theme }) => {
      await page.click('#review-game');
      await waitBody(page, 'review', 'done', 90_000);
      await page.check('#analyse');
      await expect(page.locator('.analysis-line')).toHaveCount(3, { timeout: 15_000 });
      await shoot(page, `${variant}-study-${language}-${theme}-${size}`, true);
      await page.uncheck('#analyse');
    });
  });
}
