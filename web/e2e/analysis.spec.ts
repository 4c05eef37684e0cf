// Analysis on the board: the switch asks the server's engine about the
// position shown; the evaluation bar, the three lines and the best move's
// arrow appear, follow a move played and a step back, and a line is
// stepped through as a variation without changing the game. It is not
// offered while a game against the computer goes on.

import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { body, boardShowsServer, createGame, pageBase, screenshot, serverState, statusLine, waitBody, waitPly } from './helpers';

/** The first move of the best line, as listed. */
const firstOfBest = (page: Page): Promise<string> =>
  page.locator('.analysis-line[data-line="0"] button[data-step="0"]').innerText();

/** Waits until the three lines are listed and the best one begins with `mark`. */
async function linesFor(page: Page, mark: string): Promise<void> {
  await expect(page.locator('.analysis-line')).toHaveCount(3, { timeout: 15_000 });
  await expect(async () => expect((await firstOfBest(page)).startsWith(mark)).toBe(true)).toPass({ timeout: 15_000 });
}

/** The arrows drawn on the board (shogiground's or chessground's shapes). */
const arrows = (page: Page): Promise<number> =>
  page.evaluate(() => document.querySelectorAll('svg.sg-shapes line, svg.sg-shapes path, svg.cg-shapes line').length);

/**
 * The arrows whose shaft is drawn: shogiground colours a shape by CSS
 * alone, and a brush without a rule drew only the arrow's head.
 */
const shafts = (page: Page): Promise<number> =>
  page.evaluate(
    () =>
      [...document.querySelectorAll('svg.sg-shapes line, svg.cg-shapes line')].filter((line) => {
        const style = getComputedStyle(line);
        return style.stroke !== 'none' && style.stroke !== '' && parseFloat(style.strokeWidth) > 0;
      }).length,
  );

/** The seat tokens the server handed out with a new game. */
const seats = (state: object): Record<string, string> => (state as { seats?: Record<string, string> }).seats ?? {};

/** Plays `move` through the API with the token of the side to move (`side`). */
async function play(page: Page, state: object & { id: string }, move: string, ply: number, side: string): Promise<void> {
  const token = seats(state)[side];
  const status = await page.evaluate(
    async ({ id, move, ply, token }) =>
      (
        await fetch(`/api/games/${id}/moves`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ move, ply, token }),
        })
      ).status,
    { id: state.id, move, ply, token },
  );
  expect(status).toBe(200);
}

test('analysis: the bar, three lines and the arrow follow a move and a step back', async ({ page }) => {
  const state = await createGame(page, { variant: 'shogi', opponent: { kind: 'human' } });
  await page.goto(`${pageBase(page)}#/game/${state.id}`);
  await waitBody(page, 'gameId', state.id);
  await play(page, state, '7g7f', 0, 'sente');
  await waitPly(page, 1);
  await expect(page.locator('#analysis-panel')).toBeVisible();
  await expect(page.locator('#eval-bar')).toBeHidden();
  await page.check('#analyse');
  await expect(page.locator('#eval-bar')).toBeVisible();
  // Gote to move: the best line begins with Gote's move.
  await linesFor(page, '☖');
  await expect(async () => expect(await arrows(page)).toBeGreaterThan(0)).toPass({ timeout: 5000 });
  expect(await shafts(page), 'the arrow has its shaft').toBeGreaterThan(0);
  // Each line shows one row of moves until opened.
  const firstLine = page.locator('.analysis-line[data-line="0"]');
  const oneRow = (await firstLine.boundingBox())!.height;
  expect(oneRow, 'one row').toBeLessThan(40);
  await firstLine.locator('.analysis-more').click();
  await expect(firstLine).toHaveClass(/\bopen\b/);
  expect((await firstLine.boundingBox())!.height, 'opened, the whole line').toBeGreaterThanOrEqual(oneRow);
  await firstLine.locator('.analysis-more').click();
  await expect(firstLine).not.toHaveClass(/\bopen\b/);
  const share = Number(await page.getAttribute('#eval-bar', 'data-share'));
  expect(share > 0.2 && share < 0.8, `an even opening: Sente's share ${share}`).toBe(true);
  const scores = await page.$$eval('.analysis-score', (spans) => spans.map((s) => s.textContent ?? ''));
  expect(scores.every((s) => /^[+−±]\d+$/.test(s)), `scores in centipawns: ${scores}`).toBe(true);
  // Depth, nodes and the speed beside them.
  await expect(page.locator('#analysis-status')).toContainText(/Depth \d+, [\d,]+ nodes, [\d.]+ s, [\d.,]+ kN\/s/);
  // The bar's number: horizontal text of 12 px or more, as the lines write it.
  const label = page.locator('#eval-bar .eval-text');
  await expect(label).toHaveText(/^([+−±]\d+|−?M\d+)$/);
  const size = await label.evaluate((span) => ({ font: parseFloat(getComputedStyle(span).fontSize), box: span.getBoundingClientRect() }));
  expect(size.font).toBeGreaterThanOrEqual(12);
  expect(size.box.width, 'written across, not up the bar').toBeGreaterThan(size.box.height);
  // Multiple lines: 5, then 1, each asked again; the choice is kept.
  await page.selectOption('#analysis-multipv', '5');
  await expect(page.locator('.analysis-line')).toHaveCount(5, { timeout: 15_000 });
  await page.selectOption('#analysis-multipv', '1');
  await expect(page.locator('.analysis-line')).toHaveCount(1, { timeout: 15_000 });
  expect(await page.evaluate(() => localStorage.getItem('koma.analysisLines'))).toBe('1');
  await page.selectOption('#analysis-multipv', '3');
  await expect(page.locator('.analysis-line')).toHaveCount(3, { timeout: 15_000 });
  // The pointer on the second line: the arrow shows that line's first move
  // (MultiPV lines start with different moves); off it, the best move again.
  // Each poll reads the line and the arrow at once: the lines may change.
  const arrowFollows = (line: number) =>
    page.evaluate((index) => {
      const title = document.querySelector(`.analysis-line[data-line="${index}"] button[data-step="0"]`)?.getAttribute('title') ?? '';
      return document.body.dataset.arrows === `best:${title.split(':')[0]}`;
    }, line);
  await expect.poll(() => arrowFollows(0), { timeout: 15_000 }).toBe(true);
  await page.hover('.analysis-line[data-line="1"] .analysis-score');
  await expect(page.locator('.analysis-line[data-line="1"]')).toHaveClass(/hovered/);
  await expect.poll(() => arrowFollows(1)).toBe(true);
  await page.mouse.move(1, 1);
  await expect.poll(() => arrowFollows(0)).toBe(true);

  // A move played: the analysis follows to Sente's turn.
  await play(page, state, '3c3d', 1, 'gote');
  await waitPly(page, 2);
  await linesFor(page, '☗');
  // A step back: Gote's turn again.
  await page.click('#previous');
  await waitBody(page, 'shownPly', 1);
  await linesFor(page, '☖');
  await expect(async () => expect(await arrows(page)).toBeGreaterThan(0)).toPass({ timeout: 5000 });

  // The second move of the best line, shown as a variation.
  const line = page.locator('.analysis-line[data-line="0"] button[data-step="1"]');
  const title = (await line.getAttribute('title')) ?? '';
  await line.click();
  await expect(page.locator('#analysis-variation')).toBeVisible();
  expect(await statusLine(page)).toContain('Variation, 2 moves from the game');
  const shown = await page.evaluate(() => document.body.dataset.analysis);
  expect(shown).not.toBe('');
  expect(title.split(':')[0].length).toBeGreaterThan(3);
  expect((await serverState(page)).ply, 'the game is unchanged').toBe(2);
  await screenshot(page, 'shogi-analysis');
  await page.click('#analysis-back');
  await expect(page.locator('#analysis-variation')).toBeHidden();
  await page.click('#last');
  await boardShowsServer(page);
  // Off: the bar goes, the server stops.
  await page.uncheck('#analyse');
  await expect(page.locator('#eval-bar')).toBeHidden();
  await expect(page.locator('.analysis-line')).toHaveCount(0);
});

/**
 * The drop arrows whose shaft is drawn: a drop's arrow starts at the hand
 * piece, so shogiground keys its shape by the piece (`…,sente,gold,5b,…`),
 * not by a square.
 */
const dropShafts = (page: Page): Promise<{ drops: number; drawn: number }> =>
  page.evaluate(() => {
    const drops = [...document.querySelectorAll('svg.sg-shapes g[sgHash] line')].filter((line) =>
      /,(sente|gote),[a-z]+,/.test(line.parentElement?.getAttribute('sgHash') ?? ''),
    );
    const drawn = drops.filter((line) => {
      const style = getComputedStyle(line);
      return style.stroke !== 'none' && style.stroke !== '' && parseFloat(style.strokeWidth) > 0;
    });
    return { drops: drops.length, drawn: drawn.length };
  });

test('analysis: the arrow of a best move that is a drop has its shaft', async ({ page }) => {
  // Sente mates at once by dropping the gold on 5b.
  const state = await createGame(page, { variant: 'shogi', opponent: { kind: 'human' }, position: '4k4/9/4P4/9/9/9/9/9/4K4 b G 1' });
  await page.goto(`${pageBase(page)}#/game/${state.id}`);
  await waitBody(page, 'gameId', state.id);
  await page.check('#analyse');
  await expect(page.locator('.analysis-line[data-line="0"] button[data-step="0"]')).toHaveAttribute('title', /^G\*5b/, { timeout: 15_000 });
  await expect(async () => expect((await dropShafts(page)).drops).toBe(1)).toPass({ timeout: 5000 });
  expect((await dropShafts(page)).drawn, 'the drop arrow has its shaft').toBe(1);
});

test('analysis: a variation is stepped into on the board', async ({ page }) => {
  const state = await createGame(page, { variant: 'minishogi', opponent: { kind: 'human' } });
  await page.goto(`${pageBase(page)}#/game/${state.id}`);
  await waitBody(page, 'gameId', state.id);
  await page.check('#analyse');
  await linesFor(page, '☗');
  const first = page.locator('.analysis-line[data-line="0"] button[data-step="0"]');
  await first.click();
  await expect(page.locator('#analysis-variation button.current')).toHaveCount(1);
  // The board shows the line's first move; the analysis is now of Gote's reply.
  await linesFor(page, '☖');
  const view = await page.evaluate(() => document.body.dataset.analysis);
  expect(view).not.toBe('');
  await screenshot(page, 'minishogi-analysis');
  await page.click('#analysis-back');
  await linesFor(page, '☗');
  await boardShowsServer(page);
});

for (const variant of ['spear', 'pawns'] as const) {
  test(`analysis: ${variant} lines and screenshot`, async ({ page }) => {
    const state = await createGame(page, { variant, opponent: { kind: 'human' } });
    await page.goto(`${pageBase(page)}#/game/${state.id}`);
    await waitBody(page, 'gameId', state.id);
    await page.check('#analyse');
    await expect(page.locator('.analysis-line')).toHaveCount(3, { timeout: 15_000 });
    const best = await firstOfBest(page);
    if (variant === 'pawns') expect(/^1\. [a-h]/.test(best), `coordinates: ${best}`).toBe(true);
    else expect(best.startsWith('☗'), best).toBe(true);
    await expect(async () => expect(await arrows(page)).toBeGreaterThan(0)).toPass({ timeout: 5000 });
    await screenshot(page, `${variant}-analysis`);
    await page.uncheck('#analyse');
  });
}

test('analysis: not offered against the computer while the game runs', async ({ page }) => {
  const state = await createGame(page, { variant: 'shogi', opponent: { kind: 'computer', level: 1, color: 'gote' } });
  await page.goto(`${pageBase(page)}#/game/${state.id}`);
  await waitBody(page, 'gameId', state.id);
  await expect(page.locator('#analysis-panel')).toBeHidden();
  await expect(page.locator('#eval-bar')).toBeHidden();
  expect(await body(page, 'analysis')).toBe('');
  // Once it is over, analysis is offered.
  const token = seats(state).sente;
  const resigned = await page.evaluate(async ({ id, token }) => {
    return (
      await fetch(`/api/games/${id}/resign`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ply: 0, token }),
      })
    ).status;
  }, { id: state.id, token });
  expect(resigned).toBe(200);
  await expect(page.locator('#analysis-panel')).toBeVisible({ timeout: 8000 });
});
