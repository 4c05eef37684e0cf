// Engines registered with `koma serve --engine` (global-setup.ts registers
// Koma's own as `koma-usi`, an external USI engine): the analysis panel
// offers them in the games they play, analyses with the one chosen, and
// shows a second one's lines and bar beside the first's; the choice is
// kept by the browser.

import { test, expect } from './fixtures';
import { createGame, pageBase, screenshot, waitBody } from './helpers';

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
