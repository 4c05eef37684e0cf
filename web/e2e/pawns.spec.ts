// Pawns-Only Chess on chessground: moves by drag and by clicks (a capture,
// en passant), undo, flip, a PGN saved and read back, and a pawn on the last
// rank winning.

import { test, expect } from './fixtures';
import {
  body,
  clickMove,
  dragMove,
  flipTest,
  lastMoveUsi,
  newGame,
  openRecordFile,
  pasteRecord,
  save,
  screenshot,
  stepThrough,
  undoTest,
  waitBody,
} from './helpers';

test('pawns: drag and click moves, undo, flip, records', async ({ page }) => {
  await newGame(page, 'pawns');
  await dragMove(page, 'e2', 'e4');
  await clickMove(page, 'd7', 'd5');
  await dragMove(page, 'e4', 'd5'); // a capture
  await clickMove(page, 'c7', 'c5');
  await clickMove(page, 'd5', 'c6'); // en passant
  expect(await lastMoveUsi(page), 'en passant').toBe('d5c6');
  await screenshot(page, 'pawns');
  await undoTest(page);
  await flipTest(page, 'white', 'black');
  const saved = await save(page, 'pgn');
  expect(/1\. ?e4 d5/.test(saved.text), `the PGN holds the moves: ${saved.text}`).toBe(true);
  await openRecordFile(page, saved.path);
  await waitBody(page, 'variant', 'pawns');
  await stepThrough(page);
  await pasteRecord(page, saved.text);
  expect(await body(page, 'variant'), 'the pasted PGN is Pawns-Only Chess').toBe('pawns');
});

test('pawns: a pawn on the last rank wins', async ({ page }) => {
  await newGame(page, 'pawns');
  for (const [from, to] of [
    ['h2', 'h4'], ['a7', 'a5'], ['h4', 'h5'], ['a5', 'a4'], ['h5', 'h6'], ['a4', 'a3'], ['h6', 'g7'], ['a3', 'b2'],
  ])
    await clickMove(page, from, to);
  await dragMove(page, 'g7', 'g8');
  await waitBody(page, 'outcome', 'last-rank');
  const title = (await page.textContent('#result-title')) ?? '';
  expect(/White wins/.test(title), `the winner is named: "${title}"`).toBe(true);
});
