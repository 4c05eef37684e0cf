// What the specs do to the page: read the state it publishes on <body
// data-…>, play moves with the mouse, save and open records, take pictures.
// The page publishes its state on document.body.dataset (gameId, variant, ply,
// shownPly, turn, outcome, orientation, seats, computer, clock, takeback,
// mode), so the tests wait on those rather than on the drawing.

import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { GameState } from '../src/api';
import { test, expect } from './fixtures';
import { docsShots } from './env';

declare global {
  interface Window {
    /** The texts the status line showed since recordStatus. */
    statusSeen: string[];
    /** Set by a test; gone if the page reloads. */
    notReloaded?: boolean;
  }
}

type Point = { x: number; y: number };

export const body = (page: Page, key: string): Promise<string> =>
  page.evaluate((name) => document.body.dataset[name] ?? '', key);

const shownMessage = (page: Page): Promise<string> => page.evaluate(() => document.getElementById('message')?.textContent ?? '');

/** Waits until the page's <body data-key> is `value`; else fails with what it is and the page's message. */
export async function waitBody(page: Page, key: string, value: string | number, timeout = 8000): Promise<void> {
  try {
    await page.waitForFunction(([name, wanted]) => document.body.dataset[name] === wanted, [key, String(value)], { timeout });
  } catch {
    const actual = await body(page, key);
    throw new Error(`page's ${key} should become ${value}, is ${actual} (message: "${await shownMessage(page)}")`);
  }
}

/** Waits until at least `ply` moves are played (the computer may already have replied). */
export async function waitPly(page: Page, ply: number, timeout = 8000): Promise<void> {
  try {
    await page.waitForFunction((wanted) => Number(document.body.dataset.ply) >= wanted, ply, { timeout });
  } catch {
    const actual = await body(page, 'ply');
    throw new Error(`page's ply should reach ${ply}, is ${actual} (message: "${await shownMessage(page)}")`);
  }
}

/** Waits until the page shows a game other than `before`, or fails with `what` and the page's message. */
async function waitNewGame(page: Page, before: string, what: string, variant?: string): Promise<void> {
  await page
    .waitForFunction(
      ([old, name]) =>
        document.body.dataset.gameId !== old && (!name || (!!document.body.dataset.gameId && document.body.dataset.variant === name)),
      [before, variant ?? ''],
      { timeout: 8000 },
    )
    .catch(async () => {
      throw new Error(`${what} (message: "${await page.textContent('#message')}")`);
    });
}

/** Starts a game between people at this screen, without a clock, from the top bar. */
export async function newGame(page: Page, variant: string): Promise<void> {
  const before = await body(page, 'gameId');
  await page.selectOption('#variant', variant);
  await page.selectOption('#opponent', 'human');
  await page.selectOption('#time-control', '');
  await page.click('#new-game-button');
  await waitNewGame(page, before, `no new ${variant} game started`, variant);
  await waitBody(page, 'ply', 0);
}

/** The centre of a square in page pixels, for either widget and orientation. */
export async function squareCenter(page: Page, key: string): Promise<Point> {
  return page.evaluate((square) => {
    const shogi = document.querySelector('sg-pieces');
    const layer = shogi ?? document.querySelector('cg-board')!;
    // The mouse reaches only what is in the window: a board scrolled partly
    // out of it (a control lower on the page was used) comes back first.
    const seen = layer.getBoundingClientRect();
    if (seen.top < 0 || seen.bottom > window.innerHeight) layer.scrollIntoView({ block: 'center' });
    const rect = layer.getBoundingClientRect();
    const area = document.getElementById('board-area')!;
    const files = Number(getComputedStyle(area).getPropertyValue('--files'));
    const ranks = Number(getComputedStyle(area).getPropertyValue('--ranks'));
    const orientation = document.body.dataset.orientation;
    let x: number;
    let y: number;
    if (shogi) {
      // USI squares: file digit(s), rank letter; file 1 is on the right for sente.
      const file = Number(square.slice(0, -1));
      const rank = square.charCodeAt(square.length - 1) - 97;
      const bottomIsFirst = orientation === 'sente';
      x = bottomIsFirst ? files - file : file - 1;
      y = bottomIsFirst ? rank : ranks - 1 - rank;
    } else {
      const file = square.charCodeAt(0) - 97;
      const rank = Number(square.slice(1)) - 1;
      const white = orientation === 'white';
      x = white ? file : files - 1 - file;
      y = white ? ranks - 1 - rank : rank;
    }
    return { x: rect.left + ((x + 0.5) * rect.width) / files, y: rect.top + ((y + 0.5) * rect.height) / ranks };
  }, key);
}

export async function handPieceCenter(page: Page, color: string, role: string): Promise<Point> {
  const handle = await page.$(`.hand[data-color="${color}"] sg-hp-wrap piece.${color}.${role}`);
  expect(handle, `no ${color} ${role} in hand`).toBeTruthy();
  const box = await handle!.boundingBox();
  expect(box, `the ${color} ${role} in hand is not shown`).toBeTruthy();
  return { x: box!.x + box!.width / 2, y: box!.y + box!.height / 2 };
}

export async function drag(page: Page, from: Point, to: Point): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
}

export async function click(page: Page, point: Point): Promise<void> {
  await page.mouse.click(point.x, point.y);
}

/** Plays a move by dragging its piece, then waits for the server's new ply (or a later one). */
export async function dragMove(page: Page, from: string, to: string): Promise<void> {
  const ply = Number(await body(page, 'ply'));
  await drag(page, await squareCenter(page, from), await squareCenter(page, to));
  await waitPly(page, ply + 1);
}

/** Plays a move by two clicks; checks that the legal targets were shown. */
export async function clickMove(page: Page, from: string, to: string): Promise<void> {
  const ply = Number(await body(page, 'ply'));
  await click(page, await squareCenter(page, from));
  await page.waitForSelector('sq.dest, square.move-dest', { timeout: 3000 }).catch(() => {
    throw new Error(`no legal targets shown after selecting ${from}`);
  });
  await click(page, await squareCenter(page, to));
  await waitPly(page, ply + 1);
}

/** The game as the server has it (the page's own game). */
export async function serverState(page: Page): Promise<GameState> {
  return page.evaluate(async () => (await fetch(`/api/games/${document.body.dataset.gameId}`)).json());
}

export async function lastMoveUsi(page: Page): Promise<string | null> {
  return (await serverState(page)).lastMove;
}

const openRecordPanel = (page: Page) =>
  page.evaluate(() => {
    const details = document.getElementById('record-panel') as HTMLDetailsElement | null;
    if (details) details.open = true;
  });

/** Saves the record in `format` (the download), into this test's output directory. */
export async function save(page: Page, format: string): Promise<{ path: string; name: string; text: string }> {
  await openRecordPanel(page);
  await page.selectOption('#save-format', format);
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 8000 }), page.click('#save')]);
  const name = download.suggestedFilename();
  const path = test.info().outputPath(`saved-${Date.now()}-${name}`);
  await download.saveAs(path);
  return { path, name, text: await readFile(path, 'utf8') };
}

/** Opens a record file with the file input; waits for the game it makes. */
export async function openRecordFile(page: Page, path: string): Promise<void> {
  await openRecordPanel(page);
  const before = await body(page, 'gameId');
  await page.setInputFiles('#record-file', path);
  await waitNewGame(page, before, `opening ${path} made no new game`);
}

/** Pastes a record's text; `variant` '' lets the page guess the game. */
export async function pasteRecord(page: Page, text: string, variant = ''): Promise<void> {
  await openRecordPanel(page);
  const before = await body(page, 'gameId');
  await page.fill('#record-text', text);
  await page.selectOption('#record-variant', variant);
  await page.click('#record-open');
  await waitNewGame(page, before, 'the pasted record made no new game');
}

/** Steps through a record that was just opened at its start. */
export async function stepThrough(page: Page): Promise<number> {
  const total = Number(await body(page, 'ply'));
  expect(total >= 3, `the record should have some moves, has ${total}`).toBe(true);
  await waitBody(page, 'shownPly', 0);
  await page.locator('body').press('ArrowRight');
  await waitBody(page, 'shownPly', 1);
  await page.click('#next');
  await waitBody(page, 'shownPly', 2);
  await page.click('#previous');
  await waitBody(page, 'shownPly', 1);
  await page.click('#last');
  await waitBody(page, 'shownPly', total);
  await page.locator('body').press('Home');
  await waitBody(page, 'shownPly', 0);
  await page.locator('body').press('End');
  await waitBody(page, 'shownPly', total);
  await page.click('#first');
  await waitBody(page, 'shownPly', 0);
  // A click in the move list shows the position after that move.
  await page.click(`#move-list button[data-ply="3"]`);
  await waitBody(page, 'shownPly', 3);
  const current = await page.textContent('#move-list button.current');
  expect(!!current && current.length > 2, 'the move list marks the move shown').toBe(true);
  await page.locator('body').press('End');
  return total;
}

/** The Flip button and the f key turn the board, and back. */
export async function flipTest(page: Page, first: string, second: string): Promise<void> {
  await waitBody(page, 'orientation', first);
  await page.click('#flip');
  await waitBody(page, 'orientation', second);
  const wrapClass = (await page.getAttribute('#board', 'class')) ?? '';
  expect(wrapClass.includes(`orientation-${second}`), `the board should be turned (${wrapClass})`).toBe(true);
  await page.locator('body').press('f');
  await waitBody(page, 'orientation', first);
}

export async function undoTest(page: Page): Promise<void> {
  const ply = Number(await body(page, 'ply'));
  await page.click('#undo');
  await waitBody(page, 'ply', ply - 1);
}

/** A picture of the page for docs/GUI.md, into docs/screenshots/ (kept in the repository). */
export async function screenshot(page: Page, name: string, selector = '.layout'): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur?.());
  await page.mouse.move(1, 1);
  await page.waitForTimeout(300); // animations end
  await mkdir(docsShots, { recursive: true });
  await page.locator(selector).screenshot({ path: join(docsShots, `${name}.png`) });
}

/** The moves in the move list, as their USI titles. */
export async function listedMoves(page: Page): Promise<string[]> {
  return page.$$eval('#move-list button[data-ply]', (buttons) =>
    (buttons as HTMLButtonElement[]).filter((b) => b.dataset.ply !== '0').map((b) => b.title),
  );
}

export const statusLine = async (page: Page): Promise<string> => (await page.textContent('#status .status-line')) ?? '';

/**
 * Sets the Settings panel's Premoves switch (kept by the browser, so for the
 * tests after too), by a click on it even when a box covers the page (the
 * result of a game that just ended).
 */
export async function setPremoves(page: Page, on: boolean): Promise<void> {
  await page.evaluate((wanted) => {
    const input = document.getElementById('premoves') as HTMLInputElement;
    if (input.checked !== wanted) input.click();
  }, on);
  await expect(page.locator('#premoves')).toBeChecked({ checked: on });
}

/** Counts the moves the page sends to the server. */
export function countMovesSent(page: Page): (string | null)[] {
  const sent: (string | null)[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/games\/[^/]+\/moves$/.test(request.url())) sent.push(request.postData());
  });
  return sent;
}

/** Creates a game through the API from the page (the answer holds the seat tokens). */
export async function createGame(page: Page, request: object): Promise<GameState> {
  const { status, state } = await page.evaluate(async (requestBody) => {
    const response = await fetch('/api/games', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(requestBody),
    });
    return { status: response.status, state: (await response.json()) as GameState };
  }, request);
  expect(status, `a new game (${JSON.stringify(state).slice(0, 200)})`).toBe(201);
  return state;
}

/** The page's address without its `#/…` part. */
export const pageBase = (page: Page): string => page.url().replace(/#.*$/, '');

/**
 * Checks that the board draws the server's current position: every piece on
 * its square (from the SFEN), and the last move highlighted. Shogi widgets only.
 */
export async function boardShowsServer(page: Page): Promise<GameState> {
  // The widget draws on the next animation frame: give it a moment.
  let state: GameState | undefined;
  await expect(async () => {
    state = await boardMatchesServer(page);
  }).toPass({ intervals: [200], timeout: 4000 });
  return state!;
}

const ROLES: Record<string, string> = { p: 'pawn', l: 'lance', n: 'knight', s: 'silver', g: 'gold', b: 'bishop', r: 'rook', k: 'king' };
const PROMOTED: Record<string, string> = { p: 'tokin', l: 'promotedlance', n: 'promotedknight', s: 'promotedsilver', b: 'horse', r: 'dragon' };

async function boardMatchesServer(page: Page): Promise<GameState> {
  const state = await serverState(page);
  await boardMatches(page, state.position, state.lastMove);
  return state;
}

/** Checks that the board draws `position` (SFEN) with `lastMove` highlighted. Shogi widgets only. */
export async function boardShowsPosition(page: Page, position: string, lastMove: string | null): Promise<void> {
  await expect(async () => boardMatches(page, position, lastMove)).toPass({ intervals: [200], timeout: 4000 });
}

async function boardMatches(page: Page, position: string, lastMove: string | null): Promise<void> {
  const drawn = await page.evaluate(() => {
    // shogiground keeps each piece's key, colour and role on its element.
    type Drawn = Element & { sgKey?: string; sgColor?: string; sgRole?: string };
    const pieces: Record<string, string> = {};
    for (const piece of document.querySelectorAll<Drawn>('sg-pieces piece')) {
      if (piece.classList.contains('fading') || !piece.sgKey) continue;
      pieces[piece.sgKey] = `${piece.sgColor} ${piece.sgRole}`;
    }
    const last = [...document.querySelectorAll<Drawn>('sg-squares sq')].filter((sq) => sq.classList.contains('last-dest')).map((sq) => sq.sgKey ?? '');
    return { pieces, last };
  });
  const wanted: Record<string, string> = {};
  const rows = position.split(' ')[0].split('/');
  rows.forEach((row, rank) => {
    let file = rows.length; // the files of a row run from the highest down to 1
    for (let i = 0; i < row.length; i++) {
      const c = row[i];
      if (/[0-9]/.test(c)) {
        file -= Number(c);
        continue;
      }
      const plus = c === '+';
      const letter = plus ? row[++i] : c;
      const color = letter === letter.toUpperCase() ? 'sente' : 'gote';
      const role = (plus ? PROMOTED : ROLES)[letter.toLowerCase()];
      wanted[`${file}${String.fromCharCode(97 + rank)}`] = `${color} ${role}`;
      file--;
    }
  });
  const show = (pieces: Record<string, string>) => JSON.stringify(Object.keys(pieces).sort().map((key) => `${key}:${pieces[key]}`));
  expect(show(drawn.pieces), `the board shows the position ${position}`).toBe(show(wanted));
  if (lastMove) {
    const move = /^(?:([0-9][a-z])|[A-Z]\*)([0-9][a-z])/.exec(lastMove)!;
    const squares = [move[1], move[2]].filter(Boolean).sort();
    expect(JSON.stringify(drawn.last.sort()), `the last move ${lastMove} is highlighted`).toBe(JSON.stringify(squares));
  }
}
