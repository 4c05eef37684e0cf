// The Game menu shows the chosen game at once: the board previews its start,
// New game highlighted, until New game starts it (with the opponent and clock
// chosen after it) or the menu (or "Back to the game") returns to the game.
// And the labels beside the board say who plays each side.

import { test, expect } from './fixtures';
import { body, boardShowsPosition, boardShowsServer, createGame, dragMove, newGame, pageBase, statusLine, waitBody } from './helpers';

test('game menu: the board shows the chosen game at once; New game starts it', async ({ page }) => {
  await newGame(page, 'spear');
  const spear = await body(page, 'gameId');
  // The board shows shogi's start (the server's) at once; the game is still Spear's.
  await page.selectOption('#variant', 'shogi');
  await waitBody(page, 'preview', 'shogi');
  expect(await body(page, 'gameId')).toBe(spear);
  await expect(page.locator('#board-area')).toHaveAttribute('data-variant', 'shogi');
  const shogiStart = (await createGame(page, { variant: 'shogi' })).start;
  await boardShowsPosition(page, shogiStart, null);
  await expect(page.locator('#new-game-button')).toHaveClass(/attention/);
  expect(await statusLine(page)).toContain('New game starts it');
  await expect(page.locator('#status')).toBeInViewport({ ratio: 1 });
  // The opponent and clock chosen after the game count: New game starts the game shown.
  await page.selectOption('#opponent', 'human');
  await page.selectOption('#time-control', '');
  await page.click('#new-game-button');
  await page.waitForFunction((old) => document.body.dataset.gameId !== old && document.body.dataset.variant === 'shogi', spear);
  await waitBody(page, 'preview', '');
  await expect(page.locator('#new-game-button')).not.toHaveClass(/attention/);
  await boardShowsServer(page);

  // A game under way stays while another is previewed, and comes back with the button beside the board.
  await dragMove(page, '7g', '7f');
  const shogi = await body(page, 'gameId');
  await page.selectOption('#variant', 'minishogi');
  await waitBody(page, 'preview', 'minishogi');
  const minishogiStart = (await createGame(page, { variant: 'minishogi' })).start;
  await boardShowsPosition(page, minishogiStart, null);
  // The game's own actions wait meanwhile: they would act on a game not shown.
  for (const id of ['#undo', '#resign', '#flip']) await expect(page.locator(id)).toBeDisabled();
  await page.click('#preview-back');
  await waitBody(page, 'preview', '');
  expect(await page.inputValue('#variant')).toBe('shogi');
  await boardShowsServer(page);
  // The menu back on the game's kind does the same.
  await page.selectOption('#variant', 'pawns');
  await waitBody(page, 'preview', 'pawns');
  await expect(page.locator('#board-area')).toHaveAttribute('data-widget', 'chessground');
  await page.selectOption('#variant', 'shogi');
  await waitBody(page, 'preview', '');
  expect(await body(page, 'gameId')).toBe(shogi);
  await expect(page.locator('#board-area')).toHaveAttribute('data-widget', 'shogiground');
  await boardShowsServer(page);
});

test('player labels: each side named, who plays it where that says something, no clock line without a clock', async ({ page }) => {
  // At one screen: the names alone.
  await newGame(page, 'pawns');
  await expect(page.locator('#player-top .player-side')).toHaveText('Black');
  await expect(page.locator('#player-bottom .player-side')).toHaveText('White');
  await expect(page.locator('#player-top .player-who')).toHaveCount(0);
  await expect(page.locator('#clock-top')).toBeHidden();
  await expect(page.locator('#clock-bottom')).toBeHidden();

  // Against the computer: which side it plays, and which is yours.
  const state = await createGame(page, { variant: 'spear', opponent: { kind: 'computer', level: 3, color: 'gote' } });
  await page.goto(`${pageBase(page)}#/game/${state.id}/sente/${state.seats!.sente}`);
  await waitBody(page, 'gameId', state.id);
  await expect(page.locator('#hand-bottom')).toHaveAttribute('data-label', 'Black ☗');
  await expect(page.locator('#player-bottom .player-who')).toHaveText('you');
  await expect(page.locator('#hand-top')).toHaveAttribute('data-label', 'White ☖');
  await expect(page.locator('#player-top .player-who')).toHaveText('the computer, level 3');
  await expect(page.locator('#clock-top')).toBeHidden();
  for (const id of ['#player-top', '#hand-top', '#hand-bottom', '#player-bottom']) await expect(page.locator(id)).toBeInViewport({ ratio: 1 });
});
