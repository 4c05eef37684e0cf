// Minishogi between people at one screen: moves by drag and by clicks, the
// promotion asked on the last rank, a drop dragged from the hand, undo, flip,
// and a KIF saved and read back.

import { test, expect } from './fixtures';
import {
  clickMove,
  drag,
  dragMove,
  flipTest,
  handPieceCenter,
  lastMoveUsi,
  newGame,
  openRecordFile,
  save,
  screenshot,
  squareCenter,
  stepThrough,
  undoTest,
  waitBody,
} from './helpers';

test('minishogi: moves, promotion choice, a drop, undo, flip, records', async ({ page }) => {
  await newGame(page, 'minishogi');
  await dragMove(page, '2e', '1d'); // bishop
  await clickMove(page, '1b', '1c'); // pawn
  // The bishop takes the bishop on the last rank: promotion is optional.
  await drag(page, await squareCenter(page, '1d'), await squareCenter(page, '4a'));
  await page.waitForSelector('sg-promotion-choices piece', { timeout: 5000 });
  await page.click('sg-promotion-choices piece.horse');
  await waitBody(page, 'ply', 3);
  expect(await lastMoveUsi(page), 'promoted').toBe('1d4a+');
  await clickMove(page, '1c', '1d');
  await screenshot(page, 'minishogi');
  // Drop the captured bishop by dragging it from the hand.
  await drag(page, await handPieceCenter(page, 'sente', 'bishop'), await squareCenter(page, '3c'));
  await waitBody(page, 'ply', 5);
  expect(await lastMoveUsi(page), 'the drop').toBe('B*3c');
  await undoTest(page);
  await flipTest(page, 'sente', 'gote');
  const saved = await save(page, 'kifu');
  expect(saved.text.includes('角成'), `the KIF holds the promotion: ${saved.text}`).toBe(true);
  await openRecordFile(page, saved.path);
  await waitBody(page, 'variant', 'minishogi');
  await stepThrough(page);
});
