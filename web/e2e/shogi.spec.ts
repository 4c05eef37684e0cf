// Shogi: a game between people at one screen (the bishop exchange with the
// promotion asked, a drop, undo, flip, KIF and CSA saved), and real records
// from testdata/records/ (KIF, KI2, CSA) opened and stepped through.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect } from './fixtures';
import { records } from './env';
import {
  click,
  clickMove,
  drag,
  dragMove,
  flipTest,
  handPieceCenter,
  lastMoveUsi,
  newGame,
  openRecordFile,
  pasteRecord,
  save,
  screenshot,
  squareCenter,
  stepThrough,
  undoTest,
  waitBody,
} from './helpers';

test('shogi: moves, promotion choice, a drop, undo, flip, save', async ({ page }) => {
  await newGame(page, 'shogi');
  await dragMove(page, '7g', '7f');
  await clickMove(page, '3c', '3d');
  // The bishop exchange: 8h2b asks whether to promote.
  await click(page, await squareCenter(page, '8h'));
  await click(page, await squareCenter(page, '2b'));
  await page.waitForSelector('sg-promotion-choices piece', { timeout: 5000 });
  await page.click('sg-promotion-choices piece.horse');
  await waitBody(page, 'ply', 3);
  expect(await lastMoveUsi(page), 'promoted').toBe('8h2b+');
  await clickMove(page, '3a', '2b');
  await drag(page, await handPieceCenter(page, 'sente', 'bishop'), await squareCenter(page, '5e'));
  await waitBody(page, 'ply', 5);
  expect(await lastMoveUsi(page), 'the drop').toBe('B*5e');
  await screenshot(page, 'shogi');
  await undoTest(page);
  await flipTest(page, 'sente', 'gote');
  const saved = await save(page, 'kifu');
  expect(saved.text.includes('７六歩'), `the KIF holds the moves: ${saved.text.slice(0, 400)}`).toBe(true);
  const csa = await save(page, 'csa');
  expect(csa.text.includes('+7776FU'), 'the CSA holds the moves').toBe(true);
});

test('shogi: open records from testdata/records and step through them', async ({ page }) => {
  await openRecordFile(page, join(records, 'meijinsen_20180508_M7_10034.kif'));
  await waitBody(page, 'variant', 'shogi');
  const total = await stepThrough(page);
  expect(total > 50, `a whole game was read (${total} moves)`).toBe(true);
  await openRecordFile(page, join(records, '4.ki2'));
  await stepThrough(page);
  const csa = await readFile(join(records, 'floodgate.csa'), 'utf8');
  await pasteRecord(page, csa);
  await stepThrough(page);
});
