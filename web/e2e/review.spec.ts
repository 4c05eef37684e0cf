// Game review: "Review this game" shows its progress, then a graph whose
// points are the per-move values the API gives, a click on a point shows
// that move, the move list marks the labelled moves, and the review is
// kept with the game. It is not offered while a game against the computer
// goes on. An imported record's comments and times are shown.

import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { GameReview, GameState } from '../src/api';
import { test, expect } from './fixtures';
import { records } from './env';
import { body, createGame, openRecordFile, pageBase, pasteRecord, screenshot, waitBody } from './helpers';

/** The review as `GET /api/games/{id}/review` gives it. */
const apiReview = (page: Page, id: string): Promise<GameReview> =>
  page.evaluate(async (game) => (await fetch(`/api/games/${game}/review`)).json(), id);

/** The graph's points: their move, value and height. */
const graphPoints = (page: Page) =>
  page.$$eval('#review-graph circle.point', (circles) =>
    circles.map((c) => ({ ply: Number(c.getAttribute('data-ply')), expected: Number(c.getAttribute('data-expected')), cy: Number(c.getAttribute('cy')) })),
  );

/** Clicks "Review this game" and waits for the review, having seen its progress. */
async function reviewGame(page: Page, timeout = 90_000): Promise<void> {
  await expect(page.locator('#review-game')).toBeVisible();
  await page.click('#review-game');
  await waitBody(page, 'review', 'done', timeout);
  await expect(page.locator('#review-game')).toBeHidden();
  await expect(page.locator('#review-graph')).toBeVisible();
}

test('review: a 100-move shogi record, its graph equal to the API, a click on a point', async ({ page }) => {
  test.setTimeout(150_000);
  await openRecordFile(page, join(records, 'oui202106290101.kif'));
  const ply = Number(await body(page, 'ply'));
  expect(ply).toBeGreaterThanOrEqual(100);
  // The progress line shows while the engine works. Twice in clean-clone
  // runs (2026-12-06, once with a 30 s wait) polling never saw it, though
  // the review then finished: every text the line shows is now recorded
  // as the page changes it, so that a line shown only between two polls
  // still counts.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { progressSeen: string[] }).progressSeen = seen;
    new MutationObserver(() => {
      const text = document.querySelector('#review-progress-text')?.textContent ?? '';
      if (text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.click('#review-game');
  await waitBody(page, 'review', 'done', 120_000);
  const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
  expect(seen.some((text) => /Reviewing: \d+ of \d+ positions|Waiting for an engine/.test(text)), `progress seen: ${JSON.stringify(seen.slice(0, 5))}`).toBe(true);

  const id = await body(page, 'gameId');
  const review = await apiReview(page, id);
  // Koma's own engine: a spec before this one in the worker must not
  // leave another chosen in the browser's storage (engines.spec.ts).
  expect(review.engine ?? 'koma', 'the engine that reviewed').toBe('koma');
  expect(review.positions.length).toBe(ply + 1);
  const points = await graphPoints(page);
  expect(points.length).toBe(ply + 1);
  points.forEach((point, index) => {
    expect(point.ply).toBe(index);
    expect(point.expected).toBe(review.positions[index].evaluation.expected);
  });
  // Higher expected scores are drawn higher.
  for (let i = 1; i < points.length; i += 1) {
    const [a, b] = [points[i - 1], points[i]];
    if (Math.abs(a.expected - b.expected) > 1e-3) expect(Math.sign(a.cy - b.cy)).toBe(Math.sign(b.expected - a.expected));
  }
  // The labels in the move list are the API's.
  const labelled = review.moves.filter((m) => m.label).map((m) => m.ply);
  const marked = await page.$$eval('#move-list .move-label', (marks) =>
    marks.map((mark) => Number(mark.parentElement!.querySelector('button')!.dataset.ply)),
  );
  expect(marked).toEqual(labelled);
  // Each side's figures.
  await expect(page.locator('#review-summary tbody tr')).toHaveCount(2);

  // A click on a point shows that move, and its notes name the better move.
  await page.click('#review-graph circle.point[data-ply="40"]', { force: true });
  await waitBody(page, 'shownPly', 40);
  await expect(page.locator('#review-cursor')).toHaveAttribute('data-ply', '40');
  if (labelled.length > 0) {
    const target = labelled[Math.floor(labelled.length / 2)];
    await page.click(`#review-graph circle.point[data-ply="${target}"]`, { force: true });
    await waitBody(page, 'shownPly', target);
    await expect(page.locator('#move-notes .move-verdict')).toContainText(/was better/);
  }
  await screenshot(page, 'shogi-review');

  // The review is kept with the game: opened again, it is there at once.
  await page.reload();
  await waitBody(page, 'gameId', id);
  await waitBody(page, 'review', 'done');
  expect((await graphPoints(page)).length).toBe(ply + 1);
});

/**
 * Plays moves through the API: each time the legal move at a fixed place in
 * the list, from the state each answer carries (paced by the server's rate
 * limit when it answers 429).
 */
async function playSome(page: Page, state: GameState, count: number): Promise<void> {
  await page.evaluate(
    async ({ start, tokens, count }) => {
      let now = start;
      for (let n = 0; n < count && !now.outcome && now.legalMoves.length > 0; ) {
        const move = now.legalMoves[(n * 7 + 3) % now.legalMoves.length];
        const answer = await fetch(`/api/games/${now.id}/moves`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ move, ply: now.ply, token: tokens[now.turn] }),
        });
        if (answer.status === 429) {
          await new Promise((wait) => setTimeout(wait, 250));
          continue;
        }
        if (!answer.ok) throw new Error(`${move} was refused: ${await answer.text()}`);
        now = (await answer.json()) as GameState;
        n += 1;
      }
    },
    { start: state, tokens: state.seats ?? {}, count },
  );
}

for (const variant of ['spear', 'minishogi', 'pawns'] as const) {
  test(`review: a ${variant} game between people at one screen`, async ({ page }) => {
    const state = await createGame(page, { variant, opponent: { kind: 'human' } });
    await playSome(page, state, 24);
    await page.goto(`${pageBase(page)}#/game/${state.id}`);
    await waitBody(page, 'gameId', state.id);
    const ply = Number(await body(page, 'ply'));
    await reviewGame(page);
    expect((await graphPoints(page)).length).toBe(ply + 1);
    await page.click(`#review-graph circle.point[data-ply="${Math.floor(ply / 2)}"]`, { force: true });
    await waitBody(page, 'shownPly', Math.floor(ply / 2));
    await screenshot(page, `${variant}-review`);
  });
}

test('review: not offered against the computer while the game runs', async ({ page }) => {
  const state = await createGame(page, { variant: 'minishogi', opponent: { kind: 'computer', level: 1, color: 'gote' } });
  await page.goto(`${pageBase(page)}#/game/${state.id}`);
  await waitBody(page, 'gameId', state.id);
  await expect(page.locator('#review-panel')).toBeHidden();
  expect(await body(page, 'review')).toBe('');
});

test("review: a record's comments and times are shown with its moves", async ({ page }) => {
  const kif = [
    '開始日時：2024/01/07 09:00',
    '棋戦：研究会',
    '手合割：平手',
    '先手：花子',
    '後手：太郎',
    '*序盤の研究',
    '手数----指手---------消費時間--',
    '   1 ７六歩(77)   ( 0:12/00:00:12)',
    '*角道を開ける',
    '   2 ３四歩(33)   ( 1:05/00:01:05)',
    '',
  ].join('\n');
  await pasteRecord(page, kif);
  await waitBody(page, 'shownPly', 0);
  // The record's details, above its moves.
  await expect(page.locator('#game-info')).toBeVisible();
  const info = await page.$$eval('#game-info dt, #game-info dd', (cells) => cells.map((c) => c.textContent));
  expect(info).toEqual(['Sente ☗', '花子', 'Gote ☖', '太郎', 'Event', '研究会', 'Date', '2024/01/07 09:00']);
  await expect(page.locator('#move-notes')).toHaveText('序盤の研究');
  await page.click('#move-list button[data-ply="1"]');
  await expect(page.locator('#move-notes')).toHaveText('角道を開ける');
  await expect(page.locator('#move-list li:has(button[data-ply="1"]) .move-comment-mark')).toHaveCount(1);
  const times = await page.$$eval('#move-list .move-time', (spans) => spans.map((s) => s.textContent));
  expect(times).toEqual(['0:12', '1:05']);
  await page.click('#move-list button[data-ply="2"]');
  await expect(page.locator('#move-notes')).toBeHidden();
});
