// Handicap games of shogi from the new-game form: the giver (Uwate, Gote)
// plays without the chosen pieces and moves first, whether the computer or
// a person gives; the sides are named Shitate and Uwate; the choice is
// offered only for shogi.

import { test, expect } from './fixtures';
import { body, boardShowsServer, clickMove, screenshot, serverState, statusLine, waitBody, waitPly } from './helpers';

const TWO_PIECE = 'lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1';
const LANCE = 'lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1';

test('handicap: the computer gives two pieces and opens; the person receives at the bottom', async ({ page }) => {
  const before = await body(page, 'gameId');
  await page.selectOption('#variant', 'shogi');
  await expect(page.locator('#handicap-options')).toBeVisible();
  await page.selectOption('#handicap', 'two-piece');
  await page.selectOption('#opponent', 'computer');
  await page.selectOption('#time-control', '');
  await page.fill('#level', '1');
  const firstLabel = await page.textContent('#computer-color option[value="first"]');
  expect(firstLabel, 'the first mover is the giver').toBe('first (Uwate, the giver)');
  await page.selectOption('#computer-color', 'first');
  await page.click('#new-game-button');
  await page.waitForFunction((old) => !!document.body.dataset.gameId && document.body.dataset.gameId !== old, before);
  const state = await serverState(page);
  expect(state.start).toBe(TWO_PIECE);
  expect(state.handicap?.name).toBe('two-piece');
  expect(state.opponent.kind === 'computer' ? state.opponent.color : undefined, 'the computer gives: Gote').toBe('gote');
  // The computer, Gote, moves first; the person (Sente) plays from the bottom.
  await waitPly(page, 1, 15000);
  await boardShowsServer(page);
  expect(await page.getAttribute('#board-area', 'data-bottom'), 'the receiver at the bottom').toBe('sente');
  const status = await statusLine(page);
  expect(status.startsWith('Shitate ☗ to move'), `the status: "${status}"`).toBe(true);
  const note = (await page.textContent('#handicap-note')) ?? '';
  expect(note).toContain('Two pieces handicap (二枚落ち)');
  expect(await page.getAttribute('#hand-top', 'data-label')).toBe('Uwate ☖');
  await screenshot(page, 'shogi-handicap');
});

test('handicap: between people, the giver moves first; other games offer no handicap', async ({ page }) => {
  const before = await body(page, 'gameId');
  await page.selectOption('#variant', 'shogi');
  await page.selectOption('#handicap', 'lance');
  await page.selectOption('#opponent', 'human');
  await page.selectOption('#time-control', '');
  await page.click('#new-game-button');
  await page.waitForFunction((old) => !!document.body.dataset.gameId && document.body.dataset.gameId !== old, before);
  await waitBody(page, 'ply', 0);
  expect((await serverState(page)).start).toBe(LANCE);
  expect(await statusLine(page)).toMatch(/^Uwate ☖ to move/);
  // Gote's pawn first; then Sente answers.
  await clickMove(page, '3c', '3d');
  await waitPly(page, 1);
  await clickMove(page, '7g', '7f');
  await waitPly(page, 2);
  const state = await serverState(page);
  expect(state.moves.map((m) => m.usi)).toEqual(['3c3d', '7g7f']);
  expect(state.moves[0].color).toBe('gote');

  await page.selectOption('#variant', 'minishogi');
  await expect(page.locator('#handicap-options')).toBeHidden();
});
