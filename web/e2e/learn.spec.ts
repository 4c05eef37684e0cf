// Learn from your mistakes, and the review graph under the board: a short
// shogi game whose Gote leaves a promoted bishop in its camp is reviewed;
// the graph is as wide as the board, its pointer line names the move; the
// mode shows the position before Gote's blunder, the review's better move
// played on the board is a "Good move", and the summary leads back to the
// review.

import { join } from 'node:path';
import { test, expect } from './fixtures';
import { docsShots } from './env';
import { body, click, screenshot, squareCenter, waitBody } from './helpers';
import { learnGote, reviewedBlunder } from './learn-helpers';

test('learn: the graph under the board, then the first mistake found with the better move', async ({ page }) => {
  test.setTimeout(120_000);
  const review = await reviewedBlunder(page);
  const blunder = review.moves.find((m) => m.ply === 4)!;
  expect(blunder.label === 'mistake' || blunder.label === 'blunder', JSON.stringify(blunder)).toBe(true);
  const better = blunder.better!.usi;
  expect(better).toMatch(/^\d[a-i]\d[a-i]\+?$/);

  // The graph is at least as wide as the board, its labels at least 12 px.
  const graph = (await page.locator('#review-graph').boundingBox())!;
  const board = (await page.locator('#board').boundingBox())!;
  expect(graph.width).toBeGreaterThanOrEqual(board.width);
  const fontSize = await page.$eval('#review-graph text.x-tick', (text) => {
    const drawing = (text as SVGTextElement).ownerSVGElement!;
    return parseFloat(getComputedStyle(text).fontSize) * (drawing.getBoundingClientRect().width / drawing.viewBox.baseVal.width);
  });
  expect(fontSize).toBeGreaterThanOrEqual(12);
  // The pointer on move 4's point: a line there, and the caption names the move.
  await page.hover('#review-graph circle.point[data-ply="4"]', { force: true });
  await expect(page.locator('#review-hover')).toHaveAttribute('data-ply', '4');
  await expect(page.locator('#review-graph-caption')).toContainText('Move 4, ☖');
  // The picture keeps the pointer's line (the helper's moves the pointer away).
  await page.waitForTimeout(300);
  await page.locator('#review-graph-box').screenshot({ path: join(docsShots, 'review-graph.png') });
  await page.mouse.move(1, 1);
  // The pointer gone, the caption is the move shown's again.
  await expect(page.locator('#review-hover')).toHaveCount(0);

  await learnGote(page);
  await expect(page.locator('#learn-prompt')).toContainText(/^(Mistake|Blunder) 1 of \d+: find a better move than ☖/);
  await expect(page.locator('#learn-prompt')).toBeInViewport({ ratio: 1 });
  await waitBody(page, 'shownPly', 3);
  // The review's better move, played on the board, is good at once.
  const [from, to] = [better.slice(0, 2), better.slice(2, 4)];
  await click(page, await squareCenter(page, from));
  await page.waitForSelector('sq.dest', { timeout: 3000 });
  await click(page, await squareCenter(page, to));
  await waitBody(page, 'learn', 'good');
  await expect(page.locator('#learn-verdict')).toHaveText('Good move!');
  // Nothing was played in the game.
  expect(await body(page, 'ply')).toBe('5');
  await screenshot(page, 'learn');

  // On to the end (one mistake or a few), then back to the review.
  while ((await body(page, 'learn')) !== 'done') {
    if (await page.locator('#learn-next').isVisible()) await page.click('#learn-next');
    else await page.click('#learn-skip');
  }
  await expect(page.locator('#learn-prompt')).toContainText(/you found [1-9]\d* of \d+ better moves/);
  await page.click('#learn-exit');
  await waitBody(page, 'learn', '');
  await expect(page.locator('#review-summary')).toBeVisible();
});

test('learn: a wrong move is put back, then the answer is shown', async ({ page }) => {
  test.setTimeout(120_000);
  await reviewedBlunder(page);
  await learnGote(page);
  // Playing the blunder again is wrong at once, and the board takes moves again.
  await click(page, await squareCenter(page, '9c'));
  await page.waitForSelector('sq.dest', { timeout: 3000 });
  await click(page, await squareCenter(page, '9d'));
  await waitBody(page, 'learn', 'wrong');
  await expect(page.locator('#learn-verdict')).toHaveText('Try again.');
  await page.click('#learn-answer');
  await waitBody(page, 'learn', 'shown');
  await expect(page.locator('#learn-verdict')).toContainText('The answer: ☖');
  await page.click('#learn-exit');
  await waitBody(page, 'learn', '');
});
