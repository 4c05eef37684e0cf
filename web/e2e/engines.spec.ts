// Engines registered with `koma serve --engine` (global-setup.ts registers
// Koma's own as `koma-usi`, an external USI engine): the analysis panel
// offers them in the games they play, analyses with the one chosen, and
// shows a second one's lines and bar beside the first's; the choice is
// kept by the browser. The new-game form offers them as the computer, and
// Find mate asks the engine chosen for analysis.

import { test, expect } from './fixtures';
import { body, clickMove, createGame, pageBase, screenshot, serverState, statusLine, waitBody, waitPly } from './helpers';

// The specs of a worker share one browser and its storage: the ones after
// these expect Koma's own engine, for analysis (the review spec reviewed
// with `koma-usi` after them) and at a level.
test.afterEach(async ({ page }) => {
  await page.evaluate(() => {
    for (const key of ['koma.analysisEngine', 'koma.analysisSecond', 'koma.computerEngine']) localStorage.removeItem(key);
  });
});

test('analysis: two engines side by side, the choice kept', async ({ page }) => {
  const state = await createGame(page, { variant: 'shogi', opponent: { kind: 'human' } });
  await page.goto(`${pageBase(page)}#/game/${state.id}`);
  await waitBody(page, 'gameId', state.id);
  await page.check('#analyse');
  // Koma's own and the registered one.
  const engines = page.locator('#analysis-engine option');
  await expect(engines).toHaveCount(2);
  await expect(engines.nth(1)).toHaveAttribute('value', 'koma-usi');
  await expect(page.locator('#analysis-second')).toBeHidden();
  await page.selectOption('#analysis-second-engine', 'koma-usi');
  const second = page.locator('#analysis-second');
  await expect(second).toBeVisible();
  await expect(second.locator('h3')).toHaveText('koma-usi');
  await expect(second.locator('.analysis-line')).toHaveCount(3, { timeout: 20_000 });
  await expect(page.locator('#analysis-lines .analysis-line')).toHaveCount(3, { timeout: 20_000 });
  await expect(second.locator('.eval-mini-text')).not.toHaveText('');
  // A line of the second engine steps into a variation like the first's.
  await second.locator('.analysis-line[data-line="0"] button[data-step="0"]').click();
  await expect(page.locator('#analysis-variation')).toBeVisible();
  await page.click('#analysis-back');
  await expect(second.locator('.analysis-line')).toHaveCount(3, { timeout: 20_000 });
  await expect(page.locator('#analysis-lines .analysis-line')).toHaveCount(3, { timeout: 20_000 });
  await screenshot(page, 'analysis-two-engines');

  // The choice is kept: a new page of the same game asks the same engines.
  await page.reload();
  await waitBody(page, 'gameId', state.id);
  await page.check('#analyse');
  await expect(page.locator('#analysis-second h3')).toHaveText('koma-usi');
  // The registered engine as the first drops it as the second.
  await page.selectOption('#analysis-engine', 'koma-usi');
  await expect(page.locator('#analysis-second')).toBeHidden();
  await expect(page.locator('#analysis-second-engine option[value="koma-usi"]')).toHaveCount(0);
  await expect(page.locator('#analysis-lines .analysis-line')).toHaveCount(3, { timeout: 20_000 });

  // Spear: the registered engine plays shogi only, and no choice is offered.
  const spear = await createGame(page, { variant: 'spear', opponent: { kind: 'human' } });
  await page.goto(`${pageBase(page)}#/game/${spear.id}`);
  await waitBody(page, 'gameId', spear.id);
  await page.check('#analyse');
  await expect(page.locator('#analysis-engine')).toHaveCount(0);
  await expect(page.locator('#analysis-lines .analysis-line')).toHaveCount(3, { timeout: 20_000 });
});

test('a registered engine plays the computer, and searches for mate', async ({ page }) => {
  await page.selectOption('#variant', 'shogi');
  await page.selectOption('#opponent', 'computer');
  await page.selectOption('#time-control', '');
  const engine = page.locator('#computer-engine');
  await expect(engine).toBeVisible();
  await engine.selectOption('koma-usi');
  await expect(page.locator('#level'), 'a registered engine plays at its own strength').toBeDisabled();
  await page.selectOption('#computer-color', 'second');
  await screenshot(page, 'new-game-engine', '#new-game');
  const before = await body(page, 'gameId');
  await page.click('#new-game-button');
  await page.waitForFunction((old) => !!document.body.dataset.gameId && document.body.dataset.gameId !== old, before);
  const state = await serverState(page);
  expect(state.opponent).toEqual({ kind: 'computer', level: 20, color: 'gote', engine: 'koma-usi' });
  expect(await statusLine(page)).toContain('against the engine koma-usi');
  await clickMove(page, '7g', '7f');
  await waitPly(page, 2, 20_000);
  const answered = await serverState(page);
  expect(answered.moves[1].color).toBe('gote');
  expect(answered.outcome).toBeFalsy();
  // The choice is kept for the next game; in Spear, which the engine does not play, none is offered.
  await page.reload();
  await page.selectOption('#opponent', 'computer');
  await page.selectOption('#variant', 'shogi');
  await expect(page.locator('#computer-engine')).toHaveValue('koma-usi');
  await page.selectOption('#variant', 'spear');
  await expect(page.locator('#computer-engine')).toBeHidden();
  await expect(page.locator('#level')).toBeEnabled();

  // Find mate with the engine chosen for analysis: its `go mate`, named in the answer.
  const tsume = await createGame(page, { variant: 'shogi', opponent: { kind: 'human' }, position: '7nk/9/6P1P/9/9/9/9/9/4K4 b GS 1' });
  await page.goto(`${pageBase(page)}#/game/${tsume.id}`);
  await waitBody(page, 'gameId', tsume.id);
  await page.check('#analyse');
  await page.selectOption('#analysis-engine', 'koma-usi');
  await page.click('#find-mate');
  await expect(page.locator('.mate-summary')).toContainText('(by koma-usi)', { timeout: 20_000 });
  await expect(page.locator('.mate-summary')).toContainText('Mate in 1');
  await expect(page.locator('.mate-line button')).toHaveCount(1);
});
