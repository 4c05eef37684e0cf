// Against the computer (Spear, level 1; Black ☗ is sente and moves first):
// its reply arrives live, it moves first when it plays first, Undo takes
// back its reply with the player's move, and the player can move neither its
// pieces nor, with premoves off, any piece while it thinks. In Pawns-Only
// Chess the computer can also be the perfect player, which opens with the
// proven win 1.b4.

import type { Page, WebSocketRoute } from '@playwright/test';
import type { GameState, Level } from '../src/api';
import { levelElo } from '../src/levels';
import { test, expect } from './fixtures';
import {
  body,
  boardShowsServer,
  click,
  clickMove,
  countMovesSent,
  drag,
  dragMove,
  listedMoves,
  screenshot,
  serverState,
  setPremoves,
  squareCenter,
  statusLine,
  waitBody,
} from './helpers';

/** Starts a game against the computer from the top bar; `plays` is 'first' or 'second'. */
async function newComputerGame(page: Page, variant: string, level: Level, plays: 'first' | 'second'): Promise<GameState> {
  const before = await body(page, 'gameId');
  await page.selectOption('#variant', variant);
  await page.selectOption('#opponent', 'computer');
  await page.selectOption('#time-control', '');
  expect(await page.isVisible('#level'), 'the level can be chosen').toBe(true);
  if (level === 'perfect') {
    await page.check('#perfect');
    expect(await page.isDisabled('#level'), 'the perfect player has no level number').toBe(true);
  } else await page.fill('#level', String(level));
  await page.selectOption('#computer-color', plays);
  await page.click('#new-game-button');
  await page
    .waitForFunction(
      ([old, name]) => !!document.body.dataset.gameId && document.body.dataset.gameId !== old && document.body.dataset.variant === name,
      [before, variant],
      { timeout: 8000 },
    )
    .catch(async () => {
      throw new Error(`no game against the computer started (message: "${await page.textContent('#message')}")`);
    });
  const state = await serverState(page);
  expect(state.opponent.kind, 'opponent').toBe('computer');
  expect(state.opponent.kind === 'computer' ? state.opponent.level : undefined, "the computer's level").toBe(level);
  return state;
}

/** Remembers every text the status line shows from now on. */
async function recordStatus(page: Page): Promise<void> {
  await page.evaluate(() => {
    window.statusSeen = [];
    const status = document.getElementById('status')!;
    const note = () => window.statusSeen.push(status.querySelector('.status-line')?.textContent ?? '');
    new MutationObserver(note).observe(status, { childList: true, subtree: true, characterData: true });
  });
}

/** A move of the player's from the server's list: a quiet one where it can. */
async function someLegalMove(page: Page, preferred: string[]): Promise<{ from: string; to: string; usi: string }> {
  const { legalMoves } = await serverState(page);
  const move = preferred.find((m) => legalMoves.includes(m)) ?? legalMoves.find((m) => !m.includes('*'));
  expect(move, `the player has a board move: ${legalMoves}`).toBeTruthy();
  const parsed = /^([0-9][a-z])([0-9][a-z])/.exec(move!)!;
  return { from: parsed[1], to: parsed[2], usi: move! };
}

test('computer: the level shows its worth on its game’s scale, where measured', async ({ page }) => {
  await page.selectOption('#opponent', 'computer');
  const worth = page.locator('#level-elo');
  for (const variant of ['shogi', 'minishogi', 'spear'] as const) {
    await page.selectOption('#variant', variant);
    await page.fill('#level', '6');
    const elo = levelElo(variant, 6);
    expect(elo, `${variant}'s level 6 was measured`).toBeDefined();
    await expect(worth).toHaveText(`≈ ${elo!.toLocaleString('en-US')} on Koma’s scale`);
  }
  await page.selectOption('#variant', 'shogi');
  await page.fill('#level', '8');
  await expect(worth).toHaveText(`≈ ${levelElo('shogi', 8)!.toLocaleString('en-US')} on Koma’s scale`);
  await screenshot(page, 'new-game-level', '#new-game');
  // Full strength is no rung of the ladder, and a person has no level.
  await page.fill('#level', '20');
  await expect(worth).toHaveCount(0);
  await page.fill('#level', '8');
  await page.selectOption('#opponent', 'human');
  await expect(page.locator('#level')).toBeHidden();
  await expect(worth).toBeHidden();
});

test('computer: level 1 replies to a mouse move, live, with the turn shown', async ({ page }) => {
  await newComputerGame(page, 'spear', 1, 'second');
  await waitBody(page, 'computer', 'gote');
  await waitBody(page, 'orientation', 'sente');
  let status = await statusLine(page);
  expect(
    /^Black ☗ to move/.test(status) && /your move/.test(status) && /level 1/.test(status),
    `the status says it is the player's move: "${status}"`,
  ).toBe(true);
  await page.evaluate(() => (window.notReloaded = true));
  await recordStatus(page);
  await dragMove(page, '5d', '5c');
  // The reply comes over the WebSocket: no reload, no click.
  await waitBody(page, 'ply', 2, 15_000);
  expect(await page.evaluate(() => window.notReloaded === true), 'the page was not reloaded').toBe(true);
  const seen = await page.evaluate(() => window.statusSeen);
  expect(
    seen.some((text) => /^White ☖ to move \(the computer is thinking\)/.test(text)),
    `while the computer thought, the status said so: ${JSON.stringify(seen)}`,
  ).toBe(true);
  const state = await boardShowsServer(page);
  expect(state.moves[0].usi, "the player's move").toBe('5d5c');
  expect(state.moves[1].color, "the reply is the computer's (White's)").toBe('gote');
  const listed = await listedMoves(page);
  expect(JSON.stringify(listed), 'the move list').toBe(JSON.stringify(['5d5c', state.moves[1].usi]));
  const lastText = (await page.textContent('#move-list button[data-ply="2"]')) ?? '';
  // Spear's moves are listed as its seed writes them, `L 51 53`.
  expect(
    !!state.moves[1].seed && lastText.includes(state.moves[1].seed),
    `the move list shows the reply in the seed's notation: "${lastText}"`,
  ).toBe(true);
  await waitBody(page, 'turn', 'sente');
  status = await statusLine(page);
  expect(/^Black ☗ to move: your move/.test(status) && !/thinking/.test(status), `the status gives the turn back: "${status}"`).toBe(true);
  await screenshot(page, 'spear-computer');
});

test('computer: playing first, it makes the first move by itself', async ({ page }) => {
  await newComputerGame(page, 'spear', 1, 'first');
  await waitBody(page, 'computer', 'sente');
  // The player (White) sits at the bottom.
  await waitBody(page, 'orientation', 'gote');
  await waitBody(page, 'ply', 1, 15_000);
  const state = await boardShowsServer(page);
  expect(state.moves[0].color, "the first move is the computer's (Black's)").toBe('sente');
  expect(JSON.stringify(await listedMoves(page)), 'the move list').toBe(JSON.stringify([state.moves[0].usi]));
  await waitBody(page, 'turn', 'gote');
  const status = await statusLine(page);
  expect(/^White ☖ to move: your move/.test(status), `the status says it is White's (the player's) move: "${status}"`).toBe(true);
  // The player answers with the mouse and the computer replies again.
  const move = await someLegalMove(page, ['1b1c', '5a5b', '3a3b']);
  await clickMove(page, move.from, move.to);
  await waitBody(page, 'ply', 3, 15_000);
  const after = await boardShowsServer(page);
  expect(after.moves[1].usi, "the player's move").toBe(move.usi);
  expect(after.moves[2].color, "the computer's second move").toBe('sente');
});

test('computer: undo takes back its reply with the move', async ({ page }) => {
  await newComputerGame(page, 'spear', 1, 'second');
  await dragMove(page, '5d', '5c');
  await waitBody(page, 'ply', 2, 15_000);
  const move = await someLegalMove(page, ['4e4d', '1e1d', '3e3d', '5e4d']);
  await clickMove(page, move.from, move.to);
  await waitBody(page, 'ply', 4, 15_000);
  // The reply may have taken Black's king: Undo takes that back too.
  if (await body(page, 'outcome')) {
    await page.waitForSelector('#result:not([hidden])', { timeout: 5000 });
    await page.click('#result-close');
  } else await waitBody(page, 'turn', 'sente');
  const before = await listedMoves(page);
  expect(before.length, 'moves listed before the undo').toBe(4);
  expect(!(await page.isDisabled('#undo')), 'Undo is offered on the player’s turn').toBe(true);
  await page.click('#undo');
  await waitBody(page, 'ply', 2);
  await waitBody(page, 'turn', 'sente');
  await waitBody(page, 'outcome', '');
  const after = await listedMoves(page);
  expect(JSON.stringify(after), 'the move list is two moves shorter').toBe(JSON.stringify(before.slice(0, 2)));
  const status = await statusLine(page);
  expect(/^Black ☗ to move: your move/.test(status), `the player is to move again: "${status}"`).toBe(true);
  await boardShowsServer(page);
  // The computer does not move again by itself: it is the player's turn.
  await page.waitForTimeout(1500);
  expect(await body(page, 'ply'), 'moves after the undo and a wait').toBe('2');
  expect((await serverState(page)).ply, "the server's moves after the undo").toBe(2);
  // And the game goes on.
  const again = await someLegalMove(page, ['4e4d', '1e1d', '3e3d', '5e4d']);
  await dragMove(page, again.from, again.to);
  await waitBody(page, 'ply', 4, 15_000);
});

test("computer: the player cannot move the computer's pieces", async ({ page }) => {
  // With premoves off, a move tried while the computer thinks is not kept
  // for later either (premove.spec.ts tests them on).
  await setPremoves(page, false);
  try {
    await cannotMoveWhileComputerThinks(page);
  } finally {
    await setPremoves(page, true);
  }
});

async function cannotMoveWhileComputerThinks(page: Page): Promise<void> {
  // The computer's replies reach this page only when the test lets them, so
  // that the page is surely waiting for one while the test tries to move.
  let hold = false;
  const held: (string | Buffer)[] = [];
  let toPage: WebSocketRoute | undefined;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    toPage = ws;
    const server = ws.connectToServer();
    server.onMessage((message) => (hold ? held.push(message) : ws.send(message)));
  });
  const sent = countMovesSent(page);
  await newComputerGame(page, 'spear', 1, 'second');
  await waitBody(page, 'ply', 0);
  // The player's turn: White's soldier is the computer's; it does not move.
  await click(page, await squareCenter(page, '1b'));
  await page.waitForTimeout(200);
  expect(await page.locator('sq.dest').count(), "legal targets shown for the computer's piece").toBe(0);
  await click(page, await squareCenter(page, '1c'));
  await drag(page, await squareCenter(page, '1b'), await squareCenter(page, '1c'));
  await page.waitForTimeout(500);
  expect(sent.length, "moves sent after trying the computer's piece").toBe(0);
  expect(await body(page, 'ply'), 'moves on the page').toBe('0');
  // The player moves; until the reply arrives nothing on the board moves.
  hold = true;
  await dragMove(page, '5d', '5c');
  expect(sent.length, 'moves sent').toBe(1);
  const status = await statusLine(page);
  expect(/the computer is thinking/.test(status), `the page waits for the computer: "${status}"`).toBe(true);
  expect(await page.isDisabled('#undo'), 'Undo waits for the reply').toBe(true);
  await drag(page, await squareCenter(page, '1b'), await squareCenter(page, '1c')); // the computer's soldier
  await drag(page, await squareCenter(page, '4e'), await squareCenter(page, '4d')); // the player's own gold
  await click(page, await squareCenter(page, '4e'));
  await page.waitForTimeout(200);
  expect(await page.locator('sq.dest').count(), 'legal targets shown while the computer thinks').toBe(0);
  await click(page, await squareCenter(page, '4d'));
  await page.waitForTimeout(500);
  expect(sent.length, 'moves sent while the computer thinks').toBe(1);
  expect(await body(page, 'ply'), 'moves on the page while the computer thinks').toBe('1');
  // The reply arrives: the player's pieces move again, the computer's still not.
  hold = false;
  expect(toPage, 'the page opened a WebSocket').toBeTruthy();
  for (const message of held.splice(0)) toPage!.send(message);
  await waitBody(page, 'ply', 2, 15_000);
  await waitBody(page, 'turn', 'sente');
  const state = await boardShowsServer(page);
  const reply = /([0-9][a-z])\+?$/.exec(state.moves[1].usi)![1]; // where the computer's piece now stands
  await click(page, await squareCenter(page, reply));
  await page.waitForTimeout(200);
  expect(await page.locator('sq.dest').count(), 'legal targets shown for the piece the computer just moved').toBe(0);
  const move = await someLegalMove(page, ['4e4d', '1e1d', '3e3d', '5e4d']);
  await clickMove(page, move.from, move.to);
  expect(sent.length, 'moves sent').toBe(2);
  await waitBody(page, 'ply', 4, 15_000);
}

test('computer: the perfect player of Pawns-Only Chess opens with the proven win', async ({ page }) => {
  // The browser tests run a debug build of koma, whose unoptimised solver
  // takes 20-50 s for these two moves (a release build answers at once).
  test.setTimeout(180_000);
  await page.selectOption('#opponent', 'computer');
  await page.selectOption('#variant', 'spear');
  expect(await page.isVisible('#perfect-option'), 'Spear has no perfect player').toBe(false);
  await page.selectOption('#variant', 'pawns');
  expect(await page.isVisible('#perfect-option'), 'Pawns-Only Chess has one').toBe(true);
  await page.selectOption('#computer-color', 'first');
  await page.check('#perfect');
  await screenshot(page, 'pawns-perfect-choice', '#new-game');
  const state = await newComputerGame(page, 'pawns', 'perfect', 'first');
  expect(state.opponent, 'the opponent kept').toEqual({ kind: 'computer', level: 'perfect', color: 'white' });
  await waitBody(page, 'computer', 'white');
  await waitBody(page, 'ply', 1, 75_000);
  const opened = await serverState(page);
  expect(opened.moves[0].usi, 'the first move of the solved game').toBe('b2b4');
  await waitBody(page, 'turn', 'black');
  let status = await statusLine(page);
  expect(/^Black to move: your move against the perfect player/.test(status), `the status names the perfect player: "${status}"`).toBe(
    true,
  );
  await dragMove(page, 'a7', 'a5');
  await waitBody(page, 'ply', 3, 75_000);
  const answered = await serverState(page);
  expect(answered.moves[2].color, "the reply is the perfect player's").toBe('white');
  await waitBody(page, 'turn', 'black');
  status = await statusLine(page);
  expect(/your move against the perfect player/.test(status), `the turn comes back: "${status}"`).toBe(true);
  await screenshot(page, 'pawns-perfect');
});
