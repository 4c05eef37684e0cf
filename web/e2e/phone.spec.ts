// The page on a phone-sized screen: the board fits without sideways scrolling
// and still takes moves.

import { test, expect } from './fixtures';
import { clickMove, newGame, screenshot } from './helpers';

// The page fixture resizes its page in the shared context to this.
test.use({ viewport: { width: 390, height: 844 } });

test('phone: the board fits a narrow screen', async ({ page }) => {
  await newGame(page, 'shogi');
  const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
  expect(fits, 'no sideways scrolling').toBe(true);
  const box = (await page.locator('#board').boundingBox())!;
  expect(box.x >= 0 && box.x + box.width <= 390, `the board is inside the screen: ${JSON.stringify(box)}`).toBe(true);
  await clickMove(page, '7g', '7f');
  await screenshot(page, 'phone-shogi');
});
