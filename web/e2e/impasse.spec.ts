// Impasse declaration (入玉宣言) in shogi: the new-game form chooses the rule
// (27 or 24 points), and the Declare button is enabled only when the side to
// move may declare, saying why not otherwise; declaring ends the game.

import { test, expect } from './fixtures';
import { body, createGame, pageBase, screenshot, serverState, statusLine, waitBody } from './helpers';
import type { GameState } from '../src/api';

/** Sente's king and ten pieces in Gote's camp, with `hand` in hand. */
const entered = (hand: string): string => `+R+BSSKGG+N+N/LL7/9/9/9/9/9/9/k8 b ${hand} 1`;

/** Opens game `state` on the page, holding its seats (as the page that created it would). */
async function openHolding(page: import('@playwright/test').Page, state: GameState): Promise<void> {
  await page.evaluate(([id, seats]) => localStorage.setItem(`koma.seats.${id}`, JSON.stringify(seats)), [
    state.id,
    state.seats ?? {},
  ] as const);
  await page.goto(`${pageBase(page)}#/game/${state.id}`);
  await waitBody(page, 'gameId', state.id);
}

test('impasse: the rule is chosen for shogi only, and Declare says why it is not valid yet', async ({ page }) => {
  const before = await body(page, 'gameId');
  await page.selectOption('#variant', 'shogi');
  await expect(page.locator('#impasse-options')).toBeVisible();
  await page.selectOption('#impasse', '24');
  await page.selectOption('#opponent', 'human');
  await page.selectOption('#time-control', '');
  await page.click('#new-game-button');
  await page.waitForFunction((old) => !!document.body.dataset.gameId && document.body.dataset.gameId !== old, before);
  const state = await serverState(page);
  expect(state.impasse?.rule).toBe(24);
  const declare = page.locator('#declare');
  await expect(declare).toBeVisible();
  await expect(declare).toBeDisabled();
  expect(await declare.getAttribute('title')).toBe(
    'Impasse declaration (the 24-point rule) not valid for Sente ☗: The king is not in the enemy camp.',
  );
  await page.selectOption('#variant', 'minishogi');
  await expect(page.locator('#impasse-options')).toBeHidden();
  await page.click('#new-game-button');
  await waitBody(page, 'variant', 'minishogi');
  await expect(declare).toBeHidden();
});

test('impasse: Declare is enabled at 28 points and wins; one point short it stays disabled', async ({ page }) => {
  const short = await createGame(page, { variant: 'shogi', opponent: { kind: 'human' }, position: entered('R4P') });
  await openHolding(page, short);
  const declare = page.locator('#declare');
  await expect(declare).toBeDisabled();
  expect(await declare.getAttribute('title')).toContain('27 points are held; 28 are needed.');
  await expect(page.locator('#impasse-note')).toHaveCount(0);

  const game = await createGame(page, { variant: 'shogi', opponent: { kind: 'human' }, position: entered('R5P') });
  await openHolding(page, game);
  await expect(declare).toBeEnabled();
  expect(await declare.getAttribute('title')).toBe('Declare impasse (入玉宣言): Sente ☗ wins under the 27-point rule');
  expect(await page.textContent('#impasse-note')).toBe(
    'Sente ☗ may declare impasse (入玉宣言): under the 27-point rule Sente ☗ would win.',
  );
  await screenshot(page, 'shogi-impasse');
  await declare.click();
  await waitBody(page, 'outcome', 'impasse');
  const after = await serverState(page);
  expect(after.outcome?.winner).toBe('sente');
  expect(await statusLine(page)).toContain('Sente wins by impasse declaration.');
  await expect(declare).toBeDisabled();
});
