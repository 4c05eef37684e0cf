// Premoves against the computer: a move (or a drop) made while the computer
// thinks is kept, drawn on the board, and played as soon as its reply comes,
// without another click; one cancelled (a click elsewhere, a right-click) is
// not played; the Settings switch turns them off. Minishogi asks about an
// optional promotion as the premove is made, Spear promotes at once, a game
// on two machines premoves too, and Pawns-Only Chess premoves on
// chessground. The computer's replies
// reach the page only when the test lets them (as in computer.spec.ts), so
// that the page is surely waiting for one while the test premoves.

import type { Page, WebSocketRoute } from '@playwright/test';
import type { GameState } from '../src/api';
import { test, expect } from './fixtures';
import {
  body,
  boardShowsServer,
  click,
  countMovesSent,
  createGame,
  drag,
  dragMove,
  handPieceCenter,
  listedMoves,
  pageBase,
  screenshot,
  serverState,
  setPremoves,
  squareCenter,
  waitBody,
  waitPly,
} from './helpers';

/** Holds what the server sends the page over the WebSocket while `held` is on; `release` lets it through. */
async function holdReplies(page: Page): Promise<{ hold(): void; release(): void }> {
  let holding = false;
  const held: (string | Buffer)[] = [];
  let toPage: WebSocketRoute | undefined;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    toPage = ws;
    const server = ws.connectToServer();
    server.onMessage((message) => (holding ? held.push(message) : ws.send(message)));
  });
  return {
    hold: () => (holding = true),
    release: () => {
      holding = false;
      expect(toPage, 'the page opened a WebSocket').toBeTruthy();
      for (const message of held.splice(0)) toPage!.send(message);
    },
  };
}

/** Opens a game against the computer (level 1, playing second) from `position`, this page holding the player's seat. */
async function computerGame(page: Page, variant: string, position?: string): Promise<GameState> {
  const player = variant === 'pawns' ? 'white' : 'sente';
  const computer = variant === 'pawns' ? 'black' : 'gote';
  const state = await createGame(page, { variant, position, opponent: { kind: 'computer', level: 1, color: computer } });
  await page.goto(`${pageBase(page)}#/game/${state.id}/${player}/${state.seats![player as 'sente']}`);
  await waitBody(page, 'gameId', state.id);
  await waitBody(page, 'seats', player);
  await waitBody(page, 'ply', 0);
  return state;
}

/** The squares the board marks as the premove's. */
const premoveSquares = (page: Page) => page.locator('sg-squares sq.current-pre, cg-board square.current-premove').count();

test('premove: a move made while the computer thinks is played on its reply', async ({ page }) => {
  const replies = await holdReplies(page);
  await setPremoves(page, true);
  await computerGame(page, 'shogi');
  const sent = countMovesSent(page);
  replies.hold();
  await dragMove(page, '7g', '7f');
  await waitBody(page, 'turn', 'gote');
  // The computer thinks (its reply is held): its pieces offer nothing…
  await click(page, await squareCenter(page, '3c'));
  await page.waitForTimeout(200);
  expect(await page.locator('sg-squares sq.pre-dest').count(), "premove targets for the computer's pawn").toBe(0);
  // …and the pawn on 2g is premoved.
  await click(page, await squareCenter(page, '2g'));
  await page.waitForSelector('sg-squares sq.pre-dest', { timeout: 3000 });
  expect(await page.locator('sg-squares sq.dest').count(), 'no legal targets while the computer is to move').toBe(0);
  await click(page, await squareCenter(page, '2f'));
  await waitBody(page, 'premove', '2g2f');
  expect(await premoveSquares(page), 'the premove is drawn on its two squares').toBe(2);
  await screenshot(page, 'premove');
  expect(sent.length, 'moves sent before the reply').toBe(1);
  expect(await body(page, 'ply'), 'moves on the page before the reply').toBe('1');
  // The reply comes: the premove follows it at once, with no further input.
  replies.release();
  await waitPly(page, 3, 15_000);
  expect(sent.length, 'moves sent: the move and the premove').toBe(2);
  const state = await serverState(page);
  expect(state.moves[1].color, "the computer's reply").toBe('gote');
  expect(state.moves[2].usi, 'the premove, played').toBe('2g2f');
  expect((await listedMoves(page)).slice(0, 3), 'the move list').toEqual(['7g7f', state.moves[1].usi, '2g2f']);
  await waitBody(page, 'premove', '');
  // The computer answers the premove in turn, and the board shows the game.
  await waitPly(page, 4, 15_000);
  await waitBody(page, 'turn', 'sente');
  await boardShowsServer(page);
  expect(await premoveSquares(page), 'no premove drawn once played').toBe(0);
});

test('premove: a piece in hand is pre-dropped and dropped on the reply', async ({ page }) => {
  const replies = await holdReplies(page);
  await setPremoves(page, true);
  // Sente has a gold in hand; Gote has only its king and a pawn, far from 9e.
  await computerGame(page, 'shogi', '4k4/9/8p/9/9/9/8P/9/4K4 b G 1');
  replies.hold();
  await dragMove(page, '1g', '1f');
  await waitBody(page, 'turn', 'gote');
  await click(page, await handPieceCenter(page, 'sente', 'gold'));
  await page.waitForSelector('sg-squares sq.pre-dest', { timeout: 3000 });
  await click(page, await squareCenter(page, '9e'));
  await waitBody(page, 'premove', 'G*9e');
  expect(await premoveSquares(page), 'the pre-drop is drawn on its square').toBe(1);
  replies.release();
  await waitPly(page, 3, 15_000);
  const state = await serverState(page);
  expect(state.moves[2].usi, 'the pre-drop, played').toBe('G*9e');
  expect(state.moves[2].color).toBe('sente');
});

test('premove: one cancelled is not played; the switch turns premoves off', async ({ page }) => {
  const replies = await holdReplies(page);
  await setPremoves(page, true);
  await computerGame(page, 'shogi');
  const sent = countMovesSent(page);
  replies.hold();
  await dragMove(page, '7g', '7f');
  await waitBody(page, 'turn', 'gote');
  // Cancelled by a click on an empty square.
  await drag(page, await squareCenter(page, '2g'), await squareCenter(page, '2f'));
  await waitBody(page, 'premove', '2g2f');
  await click(page, await squareCenter(page, '5e'));
  await waitBody(page, 'premove', '');
  expect(await premoveSquares(page), 'no premove drawn once cancelled').toBe(0);
  // Cancelled by a right-click.
  await drag(page, await squareCenter(page, '6g'), await squareCenter(page, '6f'));
  await waitBody(page, 'premove', '6g6f');
  const square = await squareCenter(page, '5e');
  await page.mouse.click(square.x, square.y, { button: 'right' });
  await waitBody(page, 'premove', '');
  // Switched off, a piece cannot be premoved at all.
  await setPremoves(page, false);
  expect(await page.evaluate(() => localStorage.getItem('koma.premoves')), 'the choice is kept').toBe('off');
  await drag(page, await squareCenter(page, '2g'), await squareCenter(page, '2f'));
  await page.waitForTimeout(300);
  expect(await body(page, 'premove'), 'no premove with the switch off').toBe('');
  replies.release();
  await waitBody(page, 'ply', 2, 15_000);
  await waitBody(page, 'turn', 'sente');
  await page.waitForTimeout(1000);
  expect(await body(page, 'ply'), 'nothing was played after the reply').toBe('2');
  expect(sent.length, 'moves sent').toBe(1);
  expect((await serverState(page)).ply, "the server's moves").toBe(2);
  await setPremoves(page, true);
});

test('premove: a premove into the zone asks where promotion is optional (minishogi)', async ({ page }) => {
  const replies = await holdReplies(page);
  await setPremoves(page, true);
  await computerGame(page, 'minishogi', '4k/5/2S2/5/K4 b - 1');
  replies.hold();
  await dragMove(page, '3c', '3b');
  await waitBody(page, 'turn', 'gote');
  await drag(page, await squareCenter(page, '3b'), await squareCenter(page, '4a'));
  await page.waitForSelector('sg-promotion-choices piece', { timeout: 5000 });
  await page.click('sg-promotion-choices piece.promotedsilver');
  await waitBody(page, 'premove', '3b4a+');
  replies.release();
  await waitPly(page, 3, 15_000);
  expect((await serverState(page)).moves[2].usi, 'the premove, promoted as chosen').toBe('3b4a+');
});

test('premove: Spear promotes a premove into its zone at once', async ({ page }) => {
  const replies = await holdReplies(page);
  await setPremoves(page, true);
  await computerGame(page, 'spear', '4k/5/5/S4/K4 b - 1');
  replies.hold();
  await dragMove(page, '5d', '5c');
  await waitBody(page, 'turn', 'gote');
  await drag(page, await squareCenter(page, '5c'), await squareCenter(page, '5b'));
  await waitBody(page, 'premove', '5c5b+');
  expect(await page.locator('sg-promotion-choices piece').count(), 'no promotion choice in Spear').toBe(0);
  replies.release();
  await waitPly(page, 3, 15_000);
  expect((await serverState(page)).moves[2].usi, 'the premove, promoted').toBe('5c5b+');
});

test('premove: on two machines, played when the other player moves', async ({ page, machines }) => {
  await setPremoves(page, true);
  const state = await createGame(page, { variant: 'spear', mode: 'shared' });
  await page.goto(`${pageBase(page)}#/game/${state.id}/sente/${state.seats!.sente}`);
  await waitBody(page, 'seats', 'sente');
  const other = await machines.open(`#/game/${state.id}/gote/${state.seats!.gote}`, 'gote');
  await waitBody(other, 'seats', 'gote');
  await dragMove(page, '5d', '5c');
  await waitBody(other, 'ply', 1);
  // While White thinks, Black premoves its gold.
  await drag(page, await squareCenter(page, '4e'), await squareCenter(page, '4d'));
  await waitBody(page, 'premove', '4e4d');
  await dragMove(other, '1b', '1c');
  await waitBody(other, 'ply', 3);
  const after = await serverState(page);
  expect(after.moves.map((move) => move.usi), "the server's game").toEqual(['5d5c', '1b1c', '4e4d']);
  await waitBody(page, 'premove', '');
});

test('premove: Pawns-Only Chess premoves with chessground', async ({ page }) => {
  const replies = await holdReplies(page);
  await setPremoves(page, true);
  await computerGame(page, 'pawns');
  replies.hold();
  await dragMove(page, 'e2', 'e4');
  await waitBody(page, 'turn', 'black');
  await drag(page, await squareCenter(page, 'a2'), await squareCenter(page, 'a3'));
  await waitBody(page, 'premove', 'a2a3');
  expect(await premoveSquares(page), 'the premove is drawn on its two squares').toBe(2);
  replies.release();
  await waitPly(page, 3, 15_000);
  expect((await serverState(page)).moves[2].usi, 'the premove, played').toBe('a2a3');
});
