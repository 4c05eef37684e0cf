// A reviewed shogi game with one blunder, and Learn from your mistakes
// started on it: shared by learn.spec.ts and layout.spec.ts.

import type { Page } from '@playwright/test';
import type { GameReview } from '../src/api';
import { expect } from './fixtures';
import { body, pasteRecord, waitBody } from './helpers';

/** 8h2b+ takes the bishop; Gote's 9c9d instead of 3a2b leaves the horse in its camp. */
export const BLUNDER_RECORD = 'position startpos moves 7g7f 3c3d 8h2b+ 9c9d 2b1a';

export const apiReview = (page: Page, id: string): Promise<GameReview> =>
  page.evaluate(async (game) => (await fetch(`/api/games/${game}/review`)).json(), id);

/** Pastes the record and reviews it. */
export async function reviewedBlunder(page: Page): Promise<GameReview> {
  await pasteRecord(page, BLUNDER_RECORD, 'shogi');
  // The record panel closed again, for the pictures.
  await page.evaluate(() => ((document.getElementById('record-panel') as HTMLDetailsElement).open = false));
  await expect(page.locator('#review-game')).toBeVisible();
  await page.click('#review-game');
  await waitBody(page, 'review', 'done', 60_000);
  return apiReview(page, await body(page, 'gameId'));
}

/** Starts the mode for Gote and waits for the position's legal moves. */
export async function learnGote(page: Page): Promise<void> {
  await page.selectOption('#learn-side', 'gote');
  await page.click('#learn-button');
  await waitBody(page, 'learn', 'find');
  await expect(page.locator('#learn-verdict')).toContainText(/to play|手番/, { timeout: 20_000 });
}

