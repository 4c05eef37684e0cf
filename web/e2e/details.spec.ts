// The record's details edited before saving: Edit opens a small form, Save
// keeps the players' names, event and comment on the server, the game's
// details show them, and the KIF downloaded carries them in its headers.

import { test, expect } from './fixtures';
import { createGame, pageBase, save, waitBody } from './helpers';

test('details: edited, shown, and written into the KIF saved', async ({ page }) => {
  const state = await createGame(page, { variant: 'shogi' });
  await page.goto(`${pageBase(page)}#/game/${state.id}/sente/${state.seats!.sente}`);
  await waitBody(page, 'gameId', state.id);
  await page.click('#details-edit');
  await page.fill('#details-sente', 'Alice');
  await page.fill('#details-gote', 'Bob');
  await page.fill('#details-event', 'Club championship');
  await page.fill('#details-comment', 'A fine game.\nBoth played well.');
  await page.click('#details-save');
  await expect(page.locator('#details-edit')).toBeVisible();
  await expect(page.locator('#game-info')).toContainText('Club championship');
  await expect(page.locator('#game-info')).toContainText('Alice');
  const kif = await save(page, 'kif');
  for (const line of ['Alice', 'Bob', 'Club championship', '*A fine game.', '*Both played well.']) {
    expect(kif.text, `${line} in the KIF`).toContain(line);
  }
  // A refused field is shown, and the form stays open with it.
  await page.click('#details-edit');
  // Past the field's own limit, as a hostile page would send it.
  await page.evaluate(() => document.getElementById('details-event')!.removeAttribute('maxlength'));
  await page.fill('#details-event', 'x'.repeat(201));
  await page.click('#details-save');
  await expect(page.locator('#message')).toContainText('too long');
  await expect(page.locator('#details-save')).toBeVisible();
});
