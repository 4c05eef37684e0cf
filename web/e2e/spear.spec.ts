// Spear Shogi between people at one screen: moves by drag and by clicks,
// compulsory promotion, drops, the king's capture and its winner, undo, flip,
// a reload, a stale move refused, and records saved and read back.

import { test, expect } from './fixtures';
import {
  body,
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

test('spear: drag and click moves, undo, flip, reload', async ({ page }) => {
  await newGame(page, 'spear');
  await dragMove(page, '5d', '5c'); // Black's soldier forward
  await clickMove(page, '1b', '1c'); // White's soldier forward
  expect(await lastMoveUsi(page), 'last move').toBe('1b1c');
  // Drawn as the seed draws it: White (Gote) at the bottom; Flip turns it.
  await flipTest(page, 'gote', 'sente');
  await undoTest(page);
  // A reload shows the same game.
  const id = await body(page, 'gameId');
  await page.reload();
  await waitBody(page, 'gameId', id);
  await waitBody(page, 'ply', 1);
});

/** The edge labels of the board, in reading order: ranks top to bottom, files left to right. */
async function edgeLabels(page: import('@playwright/test').Page): Promise<{ ranks: string[]; files: string[] }> {
  return page.evaluate(() => {
    const read = (selector: string, key: 'top' | 'left'): string[] =>
      [...document.querySelectorAll<HTMLElement>(selector)]
        .map((el) => ({ at: el.getBoundingClientRect()[key], text: el.textContent ?? '' }))
        .sort((a, b) => a.at - b.at)
        .map((label) => label.text);
    return { ranks: read('#board coords.ranks coord', 'top'), files: read('#board coords.files coord', 'left') };
  });
}

test("spear: the seed's view — White at the bottom, the seed's labels, moves like K 11 12", async ({ page }) => {
  await newGame(page, 'spear');
  await waitBody(page, 'orientation', 'gote');
  expect(await page.getAttribute('#board-area', 'data-bottom')).toBe('gote');
  expect(await edgeLabels(page), 'columns 1–5 left to right, rows 1–5 bottom to top').toEqual({
    ranks: ['5', '4', '3', '2', '1'],
    files: ['1', '2', '3', '4', '5'],
  });
  // White's king on 11 stands bottom left.
  const king = await squareCenter(page, '1a');
  const box = (await page.locator('#board').boundingBox())!;
  expect(king.x < box.x + box.width / 5 && king.y > box.y + (box.height * 4) / 5, 'the king at the bottom left').toBe(true);
  await dragMove(page, '5d', '5c'); // p 54 53
  await clickMove(page, '1b', '1c'); // P 12 13
  await waitBody(page, 'ply', 2);
  const listed = async (): Promise<string[]> => page.$$eval('#move-list button', (buttons) => buttons.map((b) => b.textContent ?? ''));
  expect(await listed()).toEqual(['Start', '1. p 54 53', '2. P 12 13']);
  await expect(page.locator('#notation-options')).toBeVisible();
  await screenshot(page, 'spear-seed-view');
  await page.selectOption('#notation', 'japanese');
  expect(await listed()).toEqual(['Start', '1. ☗５三歩(54)', '2. ☖１三歩(12)']);
  await page.selectOption('#notation', 'seed');
  // Flip still turns the board, labels and all.
  await page.click('#flip');
  await waitBody(page, 'orientation', 'sente');
  expect(await edgeLabels(page)).toEqual({ ranks: ['1', '2', '3', '4', '5'], files: ['5', '4', '3', '2', '1'] });
});

test('spear: against the computer the person plays from the bottom', async ({ page }) => {
  await page.selectOption('#variant', 'spear');
  await page.selectOption('#opponent', 'computer');
  await page.selectOption('#time-control', '');
  await page.fill('#level', '1');
  await page.selectOption('#computer-color', 'second');
  const before = await body(page, 'gameId');
  await page.click('#new-game-button');
  await page.waitForFunction((old) => !!document.body.dataset.gameId && document.body.dataset.gameId !== old, before);
  await waitBody(page, 'orientation', 'sente');
});

test('spear: compulsory promotion, a drop, and a king capture with the winner', async ({ page }) => {
  await newGame(page, 'spear');
  // The spear takes the soldier and promotes: no question asked.
  await click(page, await squareCenter(page, '1e'));
  await click(page, await squareCenter(page, '1b'));
  await waitBody(page, 'ply', 1);
  expect(await page.isVisible('sg-promotion-choices'), 'Spear must not ask about promotion').toBe(false);
  expect(await lastMoveUsi(page), 'the spear promoted').toBe('1e1b+');
  await page.waitForSelector('sg-pieces piece.sente.promotedlance', { timeout: 3000 });
  await dragMove(page, '3a', '3b'); // White's silver
  // Drop the captured soldier from the hand by clicks.
  await click(page, await handPieceCenter(page, 'sente', 'pawn'));
  await page.waitForSelector('sq.dest', { timeout: 3000 });
  await screenshot(page, 'spear-hand');
  await click(page, await squareCenter(page, '3c'));
  await waitBody(page, 'ply', 3);
  expect(await lastMoveUsi(page), 'the drop').toBe('P*3c');
  await clickMove(page, '2a', '2b'); // White's gold
  await page.evaluate(() => ((document.getElementById('pieces-panel') as HTMLDetailsElement).open = true));
  await screenshot(page, 'spear');
  await page.selectOption('#piece-set', 'letters');
  await screenshot(page, 'spear-letters');
  await page.selectOption('#piece-set', 'kanji');
  await page.evaluate(() => ((document.getElementById('pieces-panel') as HTMLDetailsElement).open = false));
  // The promoted spear takes the king.
  await dragMove(page, '1b', '1a');
  await waitBody(page, 'outcome', 'king-captured');
  await page.waitForSelector('#result:not([hidden])', { timeout: 5000 });
  await screenshot(page, 'spear-end', 'body');
  const title = (await page.textContent('#result-title')) ?? '';
  expect(/Black.*wins/.test(title), `the winner is named: "${title}"`).toBe(true);
  const detail = (await page.textContent('#result-detail')) ?? '';
  expect(/king/i.test(detail), `the reason is given: "${detail}"`).toBe(true);
  const status = (await page.textContent('#status')) ?? '';
  expect(/wins/.test(status), `the status names the winner: "${status}"`).toBe(true);
  // The captured king is in Black's hand.
  const kings = await page.getAttribute('.hand[data-color="sente"] sg-hp-wrap:has(piece.king)', 'data-nb');
  expect(kings, "kings in Black's hand").toBe('1');
  await page.click('#result-close');
  // Undo takes the capture back and the game goes on.
  await undoTest(page);
  await waitBody(page, 'outcome', '');
});

test('spear: a stale move is refused, the page resynchronises', async ({ page, context }) => {
  await newGame(page, 'spear');
  const url = page.url();
  // A second page on the same game whose live updates never arrive.
  const stale = await context.newPage();
  await stale.routeWebSocket(/\/ws$/, () => {});
  await stale.goto(url);
  await waitBody(stale, 'ply', 0);
  await dragMove(page, '5d', '5c');
  // The stale page still shows ply 0; its move is refused and it catches up.
  expect(await body(stale, 'ply'), 'the stale page has not heard of the move').toBe('0');
  await drag(stale, await squareCenter(stale, '4e'), await squareCenter(stale, '4d'));
  await waitBody(stale, 'ply', 1);
  const message = (await stale.textContent('#message')) ?? '';
  expect(message.length > 0, 'the refusal is shown').toBe(true);
  expect(await lastMoveUsi(stale), 'the game kept the first move only').toBe('5d5c');
  await stale.close();
});

test('spear: save a record and load it back', async ({ page }) => {
  await newGame(page, 'spear');
  await dragMove(page, '5d', '5c');
  await clickMove(page, '1b', '1c');
  await clickMove(page, '4e', '4d');
  const saved = await save(page, 'usi');
  expect(/5d5c 1b1c 4e4d/.test(saved.text), `the saved record holds the moves: ${saved.text}`).toBe(true);
  const kifu = await save(page, 'kifu');
  expect(kifu.text.includes('槍') || kifu.text.includes('歩'), 'the KIF names the pieces').toBe(true);
  await openRecordFile(page, saved.path);
  await waitBody(page, 'variant', 'spear');
  await stepThrough(page);
  await pasteRecord(page, saved.text, 'spear');
  expect(await body(page, 'ply'), 'moves in the pasted record').toBe('3');
});
