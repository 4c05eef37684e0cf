// The layout keeps the game in view (issue 50): on a 1280×900 window and on
// a 390×844 phone, the board's hands, both clocks, the move buttons, the
// status and each prompt (a takeback to answer, a promotion to choose, the result, a rematch
// offered, another game chosen in the Game menu, Learn from your mistakes)
// are inside the window without scrolling, in every game.

import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { body, click, createGame, dragMove, newGame, pageBase, squareCenter, waitBody } from './helpers';
import { learnGote, reviewedBlunder } from './learn-helpers';

/** Starts `variant` at this screen with a clock, from the top bar. */
async function clockedGame(page: Page, variant: string): Promise<void> {
  const before = await body(page, 'gameId');
  await page.selectOption('#variant', variant);
  await page.selectOption('#opponent', 'human');
  await page.selectOption('#time-control', '300+0+10');
  await page.click('#new-game-button');
  await page.waitForFunction(
    ([old, name]) => document.body.dataset.gameId !== old && document.body.dataset.variant === name,
    [before, variant],
    { timeout: 8000 },
  );
  await waitBody(page, 'clock', 'standing');
  await page.selectOption('#time-control', '');
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** Checks that each selector's element is wholly inside the window. */
async function allInView(page: Page, selectors: string[], what: string): Promise<void> {
  for (const selector of selectors) await expect(page.locator(selector), `${what}: ${selector}`).toBeInViewport({ ratio: 1 });
}

const BUTTONS = ['#first', '#previous', '#next', '#last', '#flip', '#undo', '#resign'];
const FIRST_MOVES: Record<string, [string, string][]> = {
  spear: [['5d', '5c'], ['1b', '1c']],
  minishogi: [['5d', '5c'], ['1b', '1c']],
  shogi: [['7g', '7f'], ['3c', '3d']],
  pawns: [['e2', 'e4'], ['d7', 'd5']],
};

/**
 * A game of each kind: two moves, then the result of a resignation. On a
 * wide window the move list is in view too; on a phone it comes under the
 * board.
 */
async function everyGameInView(page: Page, wide: boolean): Promise<void> {
  for (const variant of ['shogi', 'minishogi', 'spear', 'pawns']) {
    await clockedGame(page, variant);
    const hands = variant === 'pawns' ? [] : ['#hand-top', '#hand-bottom'];
    const declare = variant === 'shogi' ? ['#declare'] : [];
    await allInView(page, [...BUTTONS, ...declare, ...hands, '#clock-top', '#clock-bottom', '#status'], `${variant} at the start`);
    for (const [from, to] of FIRST_MOVES[variant]) await dragMove(page, from, to);
    await page.evaluate(() => window.scrollTo(0, 0));
    const moves = wide ? ['#move-list button[data-ply="2"]'] : [];
    await allInView(page, [...BUTTONS, ...hands, '#clock-top', '#clock-bottom', ...moves], `${variant} after two moves`);
    await page.click('#resign');
    await page.waitForSelector('#result:not([hidden])', { timeout: 5000 });
    await allInView(page, ['#result-title', '#result-rematch', '#result-close', '#result-new'], `${variant}: the result`);
    await page.click('#result-close');
  }
}

/** A takeback asked in a game between two machines, this page holding both seats: Accept and Decline in view. */
async function takebackInView(page: Page): Promise<void> {
  const state = await createGame(page, { variant: 'shogi', mode: 'shared', clock: { initial: 300, byoyomi: 10 } });
  await page.goto(`${pageBase(page)}#/game/${state.id}/sente/${state.seats!.sente}`);
  await waitBody(page, 'gameId', state.id);
  await page.goto(`${pageBase(page)}#/game/${state.id}/gote/${state.seats!.gote}`);
  await waitBody(page, 'seats', 'sente gote');
  await dragMove(page, '7g', '7f');
  await dragMove(page, '3c', '3d');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.click('#undo');
  // A page holding both seats asks for the side that moved last.
  await waitBody(page, 'takeback', 'gote');
  await allInView(page, ['#takeback-accept', '#takeback-decline', '#clock-top', '#clock-bottom', '#hand-bottom'], 'a takeback to answer');
  await page.click('#takeback-decline');
  await waitBody(page, 'takeback', '');
}

/**
 * Another game chosen in the Game menu: the board previews it, and New game,
 * which starts it, is in view beside the menu; on a wide window the board
 * and the way back to the game are in view too.
 */
async function previewInView(page: Page, wide: boolean): Promise<void> {
  await page.selectOption('#variant', 'shogi');
  await page.selectOption('#opponent', 'human');
  await page.click('#new-game-button');
  await waitBody(page, 'variant', 'shogi');
  // Where a player changes the menu (on a phone, under the game).
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('#variant').scrollIntoViewIfNeeded();
  await page.selectOption('#variant', 'minishogi');
  await waitBody(page, 'preview', 'minishogi');
  await allInView(page, ['#variant', '#new-game-button'], 'the menu and New game');
  if (wide) await allInView(page, ['#preview-back', '#board', '#hand-top', '#hand-bottom'], 'the preview');
  await page.click('#new-game-button');
  await waitBody(page, 'variant', 'minishogi');
  await waitBody(page, 'preview', '');
}

/** Learn from your mistakes started from the review panel: its prompt, its buttons and the board in view. */
async function learnPromptInView(page: Page): Promise<void> {
  test.setTimeout(120_000);
  await reviewedBlunder(page);
  await page.locator('#learn-button').scrollIntoViewIfNeeded();
  await learnGote(page);
  await allInView(page, ['#learn-prompt', '#learn-verdict', '#learn-answer', '#learn-skip', '#learn-exit', '#hand-top', '#hand-bottom'], 'Learn from your mistakes');
  await page.click('#learn-exit');
  await waitBody(page, 'learn', '');
}

/**
 * A rematch offered by the other machine in a game this page plays: the
 * result box asks, and its Accept and Decline are in view.
 */
async function rematchInView(page: Page): Promise<void> {
  const state = await createGame(page, { variant: 'shogi', mode: 'shared', clock: { initial: 300, byoyomi: 10 } });
  await page.goto(`${pageBase(page)}#/game/${state.id}/sente/${state.seats!.sente}`);
  await waitBody(page, 'seats', 'sente');
  await dragMove(page, '7g', '7f');
  await page.click('#resign');
  await page.waitForSelector('#result:not([hidden])', { timeout: 5000 });
  await page.click('#result-close');
  // The other player, on its machine, offers a rematch.
  const status = await page.evaluate(
    async ([id, token]) =>
      (
        await fetch(`/api/games/${id}/rematch`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ token }),
        })
      ).status,
    [state.id, state.seats!.gote],
  );
  expect(status, 'the offer is made').toBe(200);
  await waitBody(page, 'rematch', 'answer');
  await page.evaluate(() => window.scrollTo(0, 0));
  await allInView(page, ['#rematch-prompt', '#rematch-accept', '#rematch-decline', '#result-title'], 'a rematch to answer');
  await page.click('#rematch-decline');
  await waitBody(page, 'rematch', 'ask');
}

/** A shogi move that may promote: the choice the board asks is in view, both pieces of it. */
async function promotionInView(page: Page): Promise<void> {
  await newGame(page, 'shogi');
  await dragMove(page, '7g', '7f');
  await dragMove(page, '3c', '3d');
  await click(page, await squareCenter(page, '8h'));
  await click(page, await squareCenter(page, '2b'));
  await page.waitForSelector('sg-promotion-choices piece', { timeout: 5000 });
  await allInView(page, ['sg-promotion-choices piece.horse', 'sg-promotion-choices piece.bishop'], 'the promotion choice');
  await page.click('sg-promotion-choices piece.horse');
  await waitBody(page, 'ply', 3);
}

test.describe('on a 1280×900 window', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('layout: every game, its clocks, hands, buttons and result in view', async ({ page }) => {
    test.setTimeout(120_000);
    await everyGameInView(page, true);
  });

  test('layout: a takeback to answer is in view', async ({ page }) => {
    await takebackInView(page);
  });

  test('layout: another game chosen, its preview and New game in view', async ({ page }) => {
    await previewInView(page, true);
  });

  test("layout: Learn from your mistakes' prompt is in view", async ({ page }) => {
    await learnPromptInView(page);
  });

  test('layout: a promotion to choose is in view', async ({ page }) => {
    await promotionInView(page);
  });

  test('layout: a rematch to answer is in view', async ({ page }) => {
    await rematchInView(page);
  });

  test('layout: in Japanese too, whose words are wider', async ({ page }) => {
    test.setTimeout(120_000);
    // The context is shared with the other tests: the choice is put back.
    await page.selectOption('#language', 'ja');
    try {
      await expect(page.locator('#new-game-button')).toHaveText('新規対局');
      await everyGameInView(page, true);
      await takebackInView(page);
      await expect(page.locator('#takeback-accept')).toHaveCount(0);
    } finally {
      await page.selectOption('#language', 'en');
    }
    await expect(page.locator('#new-game-button')).toHaveText('New game');
  });
});

test.describe('on a 390×844 phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('layout: phone, every game, its clocks, hands, buttons and result in view', async ({ page }) => {
    test.setTimeout(120_000);
    await everyGameInView(page, false);
  });

  test('layout: phone, a takeback to answer is in view', async ({ page }) => {
    await takebackInView(page);
  });

  test('layout: phone, another game chosen, New game in view beside the menu', async ({ page }) => {
    await previewInView(page, false);
  });

  test("layout: phone, Learn from your mistakes' prompt is in view", async ({ page }) => {
    await learnPromptInView(page);
  });

  test('layout: phone, a promotion to choose is in view', async ({ page }) => {
    await promotionInView(page);
  });

  test('layout: phone, a rematch to answer is in view', async ({ page }) => {
    await rematchInView(page);
  });
});
