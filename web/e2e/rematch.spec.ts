// Rematch from the result box: against the computer the same game starts at
// once with the colours swapped; between two machines one player offers,
// the other declines, the offerer cancels, and an offer accepted moves both
// pages to the new game, each with its own seat.

import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { body, createGame, dragMove, pageBase, screenshot, serverState, waitBody } from './helpers';

const text = async (page: Page, selector: string): Promise<string> => (await page.textContent(selector)) ?? '';

/** Waits for the result box to show `prompt` (rematch.ts's RematchPrompt). */
async function prompted(page: Page, prompt: string): Promise<void> {
  await waitBody(page, 'rematch', prompt);
  await page.waitForSelector('#result:not([hidden])', { timeout: 5000 });
}

/** A rematch request as a page would send it; the status and the answer's id. */
async function askRematch(page: Page, id: string, token: string | undefined): Promise<{ status: number; id: string }> {
  return page.evaluate(
    async ([game, seat]) => {
      const response = await fetch(`/api/games/${game}/rematch`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token: seat }),
      });
      return { status: response.status, id: ((await response.json()) as { id: string }).id };
    },
    [id, token],
  );
}

test('rematch against the computer: the same game at once, colours swapped', async ({ page }) => {
  const state = await createGame(page, {
    variant: 'shogi',
    opponent: { kind: 'computer', level: 1, color: 'gote' },
    clock: { initial: 600, byoyomi: 30 },
  });
  await page.goto(`${pageBase(page)}#/game/${state.id}/sente/${state.seats!.sente}`);
  await waitBody(page, 'seats', 'sente');
  await page.click('#resign');
  await prompted(page, 'ask');
  await expect(page.locator('#result-rematch')).toBeInViewport({ ratio: 1 });
  await page.click('#result-rematch');
  await page.waitForFunction((old) => document.body.dataset.gameId !== old, state.id, { timeout: 8000 });
  await waitBody(page, 'computer', 'sente');
  await waitBody(page, 'seats', 'gote');
  await waitBody(page, 'orientation', 'gote');
  expect(await page.isHidden('#result'), 'the result box closed').toBe(true);
  // The computer plays first now, at the same level, on the same clock.
  await waitBody(page, 'ply', 1, 20_000);
  const rematch = await serverState(page);
  expect(rematch.opponent).toEqual({ kind: 'computer', level: 1, color: 'sente' });
  expect(rematch.variant).toBe('shogi');
  expect(rematch.clock?.initialMs).toBe(600_000);
  expect(rematch.clock?.byoyomiMs).toBe(30_000);
});

test('rematch between two machines: offer, decline, cancel, accept', async ({ page, machines }) => {
  test.setTimeout(60_000);
  const state = await createGame(page, { variant: 'spear', mode: 'shared' });
  await page.goto(`${pageBase(page)}#/game/${state.id}/sente/${state.seats!.sente}`);
  await waitBody(page, 'seats', 'sente');
  const other = await machines.open(`#/game/${state.id}/gote/${state.seats!.gote}`, 'gote');
  await waitBody(other, 'seats', 'gote');
  await dragMove(page, '5d', '5c');
  await waitBody(other, 'ply', 1);
  await other.click('#resign');
  for (const shown of [page, other]) await prompted(shown, 'ask');

  // Black offers; White is asked, where the eye is.
  await page.click('#result-rematch');
  await prompted(page, 'offered');
  expect(await text(page, '#rematch-prompt')).toContain('Rematch offered');
  await prompted(other, 'answer');
  expect(await text(other, '#rematch-prompt')).toBe('Your opponent offers a rematch.');
  await expect(other.locator('#rematch-accept')).toBeInViewport({ ratio: 1 });
  await expect(other.locator('#rematch-decline')).toBeInViewport({ ratio: 1 });
  await screenshot(other, 'rematch-offer', '.result-box');

  // White declines: Black is told.
  await other.click('#rematch-decline');
  await prompted(page, 'ask');
  expect(await text(page, '#rematch-prompt')).toBe('Your opponent declined the rematch.');
  await prompted(other, 'ask');

  // Black offers again and cancels: White is told, even with the box closed.
  await other.click('#result-close');
  await page.click('#result-rematch');
  await prompted(other, 'answer');
  await page.click('#rematch-cancel');
  await prompted(other, 'ask');
  expect(await text(other, '#rematch-prompt')).toBe('Your opponent cancelled the rematch offer.');

  // White offers, Black accepts: both pages move to the new game, each to its own side.
  await other.click('#result-rematch');
  await prompted(page, 'answer');
  await page.click('#rematch-accept');
  for (const shown of [page, other]) {
    await shown.waitForFunction((old) => document.body.dataset.gameId !== old, state.id, { timeout: 8000 });
  }
  const rematchId = await body(page, 'gameId');
  await waitBody(other, 'gameId', rematchId);
  await waitBody(page, 'seats', 'gote');
  await waitBody(other, 'seats', 'sente');
  await waitBody(other, 'ply', 0);
  // The new Black (White before) moves first, and the other page sees it.
  await dragMove(other, '5d', '5c');
  await waitBody(page, 'ply', 1);

  // One rematch per game: asking again gives the same game.
  const again = await askRematch(page, state.id, state.seats!.sente);
  expect(again).toEqual({ status: 200, id: rematchId });
  // A spectator's page is offered to follow.
  const watcher = await machines.open(`#/game/${state.id}`, 'watcher');
  await waitBody(watcher, 'rematch', 'watch');
  const refused = await askRematch(watcher, state.id, '0123456789abcdef0123456789abcdef');
  expect(refused.status, 'a wrong token is refused').toBe(403);
});
