// End-to-end tests of Koma's page in a real browser: Debian's Chromium
// driven by playwright-core against `koma serve`.
//
//   node e2e/run.mjs [--koma PATH] [--only NAME]
//
// --koma   the koma binary (default: $KOMA_BIN, else $CARGO_TARGET_DIR or
//          ../target, then debug/koma)
// --only   run only the tests whose name contains NAME
//
// Each test gets a page in the main browser context (one localStorage for
// all of them, like one browser); tests of games between two machines open
// more pages in fresh contexts (their own localStorage: another machine).
//
// Screenshots of failures and saved records go to web/e2e/output/; the
// pictures of each game that docs/GUI.md shows go to docs/screenshots/ (both
// ignored by git). The last line is "N passed, N failed".

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const web = resolve(here, '..');
const repo = resolve(web, '..');
const records = resolve(repo, '..', 'shared', 'records');
const output = join(here, 'output');
const docsShots = join(repo, 'docs', 'screenshots');

const CHROMIUM = '/usr/bin/chromium';
const VIEWPORT = { width: 1200, height: 860 };
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function option(name) {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}
const only = option('--only');
const targetDir = process.env.CARGO_TARGET_DIR ? resolve(repo, process.env.CARGO_TARGET_DIR) : join(repo, 'target');
const koma = resolve(option('--koma') ?? process.env.KOMA_BIN ?? join(targetDir, 'debug', 'koma'));

if (!existsSync(CHROMIUM)) {
  console.error(`The browser tests need Debian's Chromium at ${CHROMIUM}: apt-get install chromium`);
  process.exit(2);
}
if (!existsSync(koma)) {
  console.error(`No koma binary at ${koma}: build it first (cargo build -p koma) or pass --koma PATH.`);
  process.exit(2);
}

// ---- the server ----

function startServer() {
  return new Promise((resolveStart, rejectStart) => {
    const child = spawn(koma, ['serve', '--port', '0', '--memory'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let buffer = '';
    const timer = setTimeout(() => rejectStart(new Error('koma serve printed no address within 20 s')), 20_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      const match = /Koma is serving (http:\/\/\S+)/.exec(buffer);
      if (match) {
        clearTimeout(timer);
        resolveStart({ child, url: match[1].replace(/\/?$/, '/') });
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => process.stderr.write(`[koma] ${chunk}`));
    child.on('exit', (code) => {
      clearTimeout(timer);
      rejectStart(new Error(`koma serve exited with ${code} before serving`));
    });
  });
}

// ---- helpers ----

class Failure extends Error {}
function check(condition, message) {
  if (!condition) throw new Failure(message);
}
function equal(actual, expected, what) {
  if (actual !== expected) throw new Failure(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

const body = (page, key) => page.evaluate((name) => document.body.dataset[name] ?? '', key);

async function waitBody(page, key, value, timeout = 8000) {
  try {
    await page.waitForFunction(([name, wanted]) => document.body.dataset[name] === wanted, [key, String(value)], { timeout });
  } catch {
    const actual = await body(page, key);
    const message = await page.evaluate(() => document.getElementById('message')?.textContent ?? '');
    throw new Failure(`page's ${key} should become ${value}, is ${actual} (message: "${message}")`);
  }
}

/** Waits until at least `ply` moves are played (the computer may already have replied). */
async function waitPly(page, ply, timeout = 8000) {
  try {
    await page.waitForFunction((wanted) => Number(document.body.dataset.ply) >= wanted, ply, { timeout });
  } catch {
    const actual = await body(page, 'ply');
    const message = await page.evaluate(() => document.getElementById('message')?.textContent ?? '');
    throw new Failure(`page's ply should reach ${ply}, is ${actual} (message: "${message}")`);
  }
}

async function newGame(page, variant) {
  const before = await body(page, 'gameId');
  await page.selectOption('#variant', variant);
  await page.selectOption('#opponent', 'human');
  await page.selectOption('#time-control', '');
  await page.click('#new-game-button');
  await page.waitForFunction(
    ([old, name]) => document.body.dataset.gameId && document.body.dataset.gameId !== old && document.body.dataset.variant === name,
    [before, variant],
    { timeout: 8000 },
  );
  await waitBody(page, 'ply', 0);
}

/** The centre of a square in page pixels, for either widget and orientation. */
async function squareCenter(page, key) {
  return page.evaluate((square) => {
    const shogi = document.querySelector('sg-pieces');
    const layer = shogi ?? document.querySelector('cg-board');
    const rect = layer.getBoundingClientRect();
    const area = document.getElementById('board-area');
    const files = Number(getComputedStyle(area).getPropertyValue('--files'));
    const ranks = Number(getComputedStyle(area).getPropertyValue('--ranks'));
    const orientation = document.body.dataset.orientation;
    let x;
    let y;
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

async function handPieceCenter(page, color, role) {
  const handle = await page.$(`.hand[data-color="${color}"] sg-hp-wrap piece.${color}.${role}`);
  check(handle, `no ${color} ${role} in hand`);
  const box = await handle.boundingBox();
  check(box, `the ${color} ${role} in hand is not shown`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

async function drag(page, from, to) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
}

async function click(page, point) {
  await page.mouse.click(point.x, point.y);
}

/** Plays a move by dragging its piece, then waits for the server's new ply (or a later one). */
async function dragMove(page, from, to) {
  const ply = Number(await body(page, 'ply'));
  await drag(page, await squareCenter(page, from), await squareCenter(page, to));
  await waitPly(page, ply + 1);
}

/** Plays a move by two clicks; checks that the legal targets were shown. */
async function clickMove(page, from, to) {
  const ply = Number(await body(page, 'ply'));
  await click(page, await squareCenter(page, from));
  await page.waitForSelector('sq.dest, square.move-dest', { timeout: 3000 }).catch(() => {
    throw new Failure(`no legal targets shown after selecting ${from}`);
  });
  await click(page, await squareCenter(page, to));
  await waitPly(page, ply + 1);
}

async function lastMoveUsi(page) {
  return page.evaluate(async () => {
    const id = document.body.dataset.gameId;
    const state = await (await fetch(`/api/games/${id}`)).json();
    return state.lastMove;
  });
}

async function save(page, format) {
  await page.evaluate(() => {
    const details = document.getElementById('record-panel');
    if (details) details.open = true;
  });
  await page.selectOption('#save-format', format);
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 8000 }), page.click('#save')]);
  const path = join(output, `saved-${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(path);
  return { path, name: download.suggestedFilename(), text: await readFile(path, 'utf8') };
}

async function openRecordFile(page, path) {
  await page.evaluate(() => {
    const details = document.getElementById('record-panel');
    if (details) details.open = true;
  });
  const before = await body(page, 'gameId');
  await page.setInputFiles('#record-file', path);
  await page.waitForFunction((old) => document.body.dataset.gameId !== old, before, { timeout: 8000 }).catch(async () => {
    const message = await page.textContent('#message');
    throw new Failure(`opening ${path} made no new game (message: "${message}")`);
  });
}

async function pasteRecord(page, text, variant = '') {
  await page.evaluate(() => {
    const details = document.getElementById('record-panel');
    if (details) details.open = true;
  });
  const before = await body(page, 'gameId');
  await page.fill('#record-text', text);
  await page.selectOption('#record-variant', variant);
  await page.click('#record-open');
  await page.waitForFunction((old) => document.body.dataset.gameId !== old, before, { timeout: 8000 }).catch(async () => {
    const message = await page.textContent('#message');
    throw new Failure(`the pasted record made no new game (message: "${message}")`);
  });
}

/** Steps through a record that was just opened at its start. */
async function stepThrough(page) {
  const total = Number(await body(page, 'ply'));
  check(total >= 3, `the record should have some moves, has ${total}`);
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
  check(current && current.length > 2, 'the move list marks the move shown');
  await page.locator('body').press('End');
  return total;
}

async function flipTest(page, first, second) {
  await waitBody(page, 'orientation', first);
  await page.click('#flip');
  await waitBody(page, 'orientation', second);
  const wrapClass = await page.getAttribute('#board', 'class');
  check(wrapClass.includes(`orientation-${second}`), `the board should be turned (${wrapClass})`);
  await page.locator('body').press('f');
  await waitBody(page, 'orientation', first);
}

async function undoTest(page) {
  const ply = Number(await body(page, 'ply'));
  await page.click('#undo');
  await waitBody(page, 'ply', ply - 1);
}

/** A picture of the page for docs/GUI.md, into docs/screenshots/ (ignored by git). */
async function screenshot(page, name, selector = '.layout') {
  await page.evaluate(() => document.activeElement?.blur?.());
  await page.mouse.move(1, 1);
  await page.waitForTimeout(300); // animations end
  await mkdir(docsShots, { recursive: true });
  await page.locator(selector).screenshot({ path: join(docsShots, `${name}.png`) });
}

// ---- the tests ----

const tests = [];
const test = (name, run, viewport) => tests.push({ name, run, viewport });

test('spear: drag and click moves, undo, flip, reload', async (page) => {
  await newGame(page, 'spear');
  await dragMove(page, '5d', '5c'); // Black's soldier forward
  await clickMove(page, '1b', '1c'); // White's soldier forward
  equal(await lastMoveUsi(page), '1b1c', 'last move');
  await flipTest(page, 'sente', 'gote');
  await undoTest(page);
  // A reload shows the same game.
  const id = await body(page, 'gameId');
  await page.reload();
  await waitBody(page, 'gameId', id);
  await waitBody(page, 'ply', 1);
});

test('spear: compulsory promotion, a drop, and a king capture with the winner', async (page) => {
  await newGame(page, 'spear');
  // The spear takes the soldier and promotes: no question asked.
  await click(page, await squareCenter(page, '1e'));
  await click(page, await squareCenter(page, '1b'));
  await waitBody(page, 'ply', 1);
  check(!(await page.isVisible('sg-promotion-choices')), 'Spear must not ask about promotion');
  equal(await lastMoveUsi(page), '1e1b+', 'the spear promoted');
  await page.waitForSelector('sg-pieces piece.sente.promotedlance', { timeout: 3000 });
  await dragMove(page, '3a', '3b'); // White's silver
  // Drop the captured soldier from the hand by clicks.
  await click(page, await handPieceCenter(page, 'sente', 'pawn'));
  await page.waitForSelector('sq.dest', { timeout: 3000 });
  await screenshot(page, 'spear-hand');
  await click(page, await squareCenter(page, '3c'));
  await waitBody(page, 'ply', 3);
  equal(await lastMoveUsi(page), 'P*3c', 'the drop');
  await clickMove(page, '2a', '2b'); // White's gold
  await page.evaluate(() => (document.getElementById('pieces-panel').open = true));
  await screenshot(page, 'spear');
  await page.selectOption('#piece-set', 'letters');
  await screenshot(page, 'spear-letters');
  await page.selectOption('#piece-set', 'kanji');
  await page.evaluate(() => (document.getElementById('pieces-panel').open = false));
  // The promoted spear takes the king.
  await dragMove(page, '1b', '1a');
  await waitBody(page, 'outcome', 'king-captured');
  await page.waitForSelector('#result:not([hidden])', { timeout: 5000 });
  await screenshot(page, 'spear-end', 'body');
  const title = await page.textContent('#result-title');
  check(/Black.*wins/.test(title), `the winner is named: "${title}"`);
  const detail = await page.textContent('#result-detail');
  check(/king/i.test(detail), `the reason is given: "${detail}"`);
  const status = await page.textContent('#status');
  check(/wins/.test(status), `the status names the winner: "${status}"`);
  // The captured king is in Black's hand.
  const kings = await page.getAttribute('.hand[data-color="sente"] sg-hp-wrap:has(piece.king)', 'data-nb');
  equal(kings, '1', "kings in Black's hand");
  await page.click('#result-close');
  // Undo takes the capture back and the game goes on.
  await undoTest(page);
  await waitBody(page, 'outcome', '');
});

test('spear: a stale move is refused, the page resynchronises', async (page, context) => {
  await newGame(page, 'spear');
  const url = page.url();
  // A second page on the same game whose live updates never arrive.
  const stale = await context.newPage();
  await stale.routeWebSocket(/\/ws$/, () => {});
  await stale.goto(url);
  await waitBody(stale, 'ply', 0);
  await dragMove(page, '5d', '5c');
  // The stale page still shows ply 0; its move is refused and it catches up.
  equal(await body(stale, 'ply'), '0', 'the stale page has not heard of the move');
  await drag(stale, await squareCenter(stale, '4e'), await squareCenter(stale, '4d'));
  await waitBody(stale, 'ply', 1);
  const message = await stale.textContent('#message');
  check(message.length > 0, 'the refusal is shown');
  equal(await lastMoveUsi(stale), '5d5c', 'the game kept the first move only');
  await stale.close();
});

test('spear: save a record and load it back', async (page) => {
  await newGame(page, 'spear');
  await dragMove(page, '5d', '5c');
  await clickMove(page, '1b', '1c');
  await clickMove(page, '4e', '4d');
  const saved = await save(page, 'usi');
  check(/5d5c 1b1c 4e4d/.test(saved.text), `the saved record holds the moves: ${saved.text}`);
  const kifu = await save(page, 'kifu');
  check(kifu.text.includes('槍') || kifu.text.includes('歩'), 'the KIF names the pieces');
  await openRecordFile(page, saved.path);
  await waitBody(page, 'variant', 'spear');
  await stepThrough(page);
  await pasteRecord(page, saved.text, 'spear');
  equal(await body(page, 'ply'), '3', 'moves in the pasted record');
});

test('minishogi: moves, promotion choice, a drop, undo, flip, records', async (page) => {
  await newGame(page, 'minishogi');
  await dragMove(page, '2e', '1d'); // bishop
  await clickMove(page, '1b', '1c'); // pawn
  // The bishop takes the bishop on the last rank: promotion is optional.
  await drag(page, await squareCenter(page, '1d'), await squareCenter(page, '4a'));
  await page.waitForSelector('sg-promotion-choices piece', { timeout: 5000 });
  await page.click('sg-promotion-choices piece.horse');
  await waitBody(page, 'ply', 3);
  equal(await lastMoveUsi(page), '1d4a+', 'promoted');
  await clickMove(page, '1c', '1d');
  await screenshot(page, 'minishogi');
  // Drop the captured bishop by dragging it from the hand.
  await drag(page, await handPieceCenter(page, 'sente', 'bishop'), await squareCenter(page, '3c'));
  await waitBody(page, 'ply', 5);
  equal(await lastMoveUsi(page), 'B*3c', 'the drop');
  await undoTest(page);
  await flipTest(page, 'sente', 'gote');
  const saved = await save(page, 'kifu');
  check(saved.text.includes('角成'), `the KIF holds the promotion: ${saved.text}`);
  await openRecordFile(page, saved.path);
  await waitBody(page, 'variant', 'minishogi');
  await stepThrough(page);
});

test('shogi: moves, promotion choice, a drop, undo, flip, save', async (page) => {
  await newGame(page, 'shogi');
  await dragMove(page, '7g', '7f');
  await clickMove(page, '3c', '3d');
  // The bishop exchange: 8h2b asks whether to promote.
  await click(page, await squareCenter(page, '8h'));
  await click(page, await squareCenter(page, '2b'));
  await page.waitForSelector('sg-promotion-choices piece', { timeout: 5000 });
  await page.click('sg-promotion-choices piece.horse');
  await waitBody(page, 'ply', 3);
  equal(await lastMoveUsi(page), '8h2b+', 'promoted');
  await clickMove(page, '3a', '2b');
  await drag(page, await handPieceCenter(page, 'sente', 'bishop'), await squareCenter(page, '5e'));
  await waitBody(page, 'ply', 5);
  equal(await lastMoveUsi(page), 'B*5e', 'the drop');
  await screenshot(page, 'shogi');
  await undoTest(page);
  await flipTest(page, 'sente', 'gote');
  const saved = await save(page, 'kifu');
  check(saved.text.includes('７六歩'), `the KIF holds the moves: ${saved.text.slice(0, 400)}`);
  const csa = await save(page, 'csa');
  check(csa.text.includes('+7776FU'), 'the CSA holds the moves');
});

test('shogi: open records from shared/records and step through them', async (page) => {
  await openRecordFile(page, join(records, 'meijinsen_20180508_M7_10034.kif'));
  await waitBody(page, 'variant', 'shogi');
  const total = await stepThrough(page);
  check(total > 50, `a whole game was read (${total} moves)`);
  await openRecordFile(page, join(records, '4.ki2'));
  await stepThrough(page);
  const csa = await readFile(join(records, 'floodgate.csa'), 'utf8');
  await pasteRecord(page, csa);
  await stepThrough(page);
});

test('pawns: drag and click moves, undo, flip, records', async (page) => {
  await newGame(page, 'pawns');
  await dragMove(page, 'e2', 'e4');
  await clickMove(page, 'd7', 'd5');
  await dragMove(page, 'e4', 'd5'); // a capture
  await clickMove(page, 'c7', 'c5');
  await clickMove(page, 'd5', 'c6'); // en passant
  equal(await lastMoveUsi(page), 'd5c6', 'en passant');
  await screenshot(page, 'pawns');
  await undoTest(page);
  await flipTest(page, 'white', 'black');
  const saved = await save(page, 'pgn');
  check(/1\. ?e4 d5/.test(saved.text), `the PGN holds the moves: ${saved.text}`);
  await openRecordFile(page, saved.path);
  await waitBody(page, 'variant', 'pawns');
  await stepThrough(page);
  await pasteRecord(page, saved.text);
  equal(await body(page, 'variant'), 'pawns', 'the pasted PGN is Pawns-Only Chess');
});

test('pawns: a pawn on the last rank wins', async (page) => {
  await newGame(page, 'pawns');
  for (const [from, to] of [
    ['h2', 'h4'], ['a7', 'a5'], ['h4', 'h5'], ['a5', 'a4'], ['h5', 'h6'], ['a4', 'a3'], ['h6', 'g7'], ['a3', 'b2'],
  ])
    await clickMove(page, from, to);
  await dragMove(page, 'g7', 'g8');
  await waitBody(page, 'outcome', 'last-rank');
  const title = await page.textContent('#result-title');
  check(/White wins/.test(title), `the winner is named: "${title}"`);
});

// ---- against the computer (Spear; Black ☗ is sente and moves first) ----

/** Starts a game against the computer from the top bar; `plays` is 'first' or 'second'. */
async function newComputerGame(page, variant, level, plays) {
  const before = await body(page, 'gameId');
  await page.selectOption('#variant', variant);
  await page.selectOption('#opponent', 'computer');
  await page.selectOption('#time-control', '');
  check(await page.isVisible('#level'), 'the level can be chosen');
  await page.fill('#level', String(level));
  await page.selectOption('#computer-color', plays);
  await page.click('#new-game-button');
  await page.waitForFunction(
    ([old, name]) => document.body.dataset.gameId && document.body.dataset.gameId !== old && document.body.dataset.variant === name,
    [before, variant],
    { timeout: 8000 },
  ).catch(async () => {
    const message = await page.textContent('#message');
    throw new Failure(`no game against the computer started (message: "${message}")`);
  });
  const state = await serverState(page);
  equal(state.opponent.kind, 'computer', 'opponent');
  equal(state.opponent.level, level, "the computer's level");
  return state;
}

async function serverState(page) {
  return page.evaluate(async () => (await fetch(`/api/games/${document.body.dataset.gameId}`)).json());
}

/** The moves in the move list, as their USI titles. */
async function listedMoves(page) {
  return page.$$eval('#move-list button[data-ply]', (buttons) => buttons.filter((b) => b.dataset.ply !== '0').map((b) => b.title));
}

const statusLine = (page) => page.textContent('#status .status-line');

/**
 * Checks that the board draws the server's current position: every piece on
 * its square (from the SFEN), and the last move highlighted.
 */
async function boardShowsServer(page) {
  // The widget draws on the next animation frame: give it a moment.
  for (let attempt = 0; ; attempt++) {
    try {
      return await boardMatchesServer(page);
    } catch (error) {
      if (!(error instanceof Failure) || attempt >= 15) throw error;
      await page.waitForTimeout(200);
    }
  }
}

async function boardMatchesServer(page) {
  const state = await serverState(page);
  const drawn = await page.evaluate(() => {
    const pieces = {};
    for (const piece of document.querySelectorAll('sg-pieces piece')) {
      if (piece.classList.contains('fading') || !piece.sgKey) continue;
      pieces[piece.sgKey] = `${piece.sgColor} ${piece.sgRole}`;
    }
    const last = [...document.querySelectorAll('sg-squares sq')].filter((sq) => sq.classList.contains('last-dest')).map((sq) => sq.sgKey);
    return { pieces, last };
  });
  const roles = { p: 'pawn', l: 'lance', n: 'knight', s: 'silver', g: 'gold', b: 'bishop', r: 'rook', k: 'king' };
  const promoted = { p: 'tokin', l: 'promotedlance', n: 'promotedknight', s: 'promotedsilver', b: 'horse', r: 'dragon' };
  const wanted = {};
  const rows = state.position.split(' ')[0].split('/');
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
      const role = (plus ? promoted : roles)[letter.toLowerCase()];
      wanted[`${file}${String.fromCharCode(97 + rank)}`] = `${color} ${role}`;
      file--;
    }
  });
  const show = (pieces) => JSON.stringify(Object.keys(pieces).sort().map((key) => `${key}:${pieces[key]}`));
  equal(show(drawn.pieces), show(wanted), `the board shows the position ${state.position}`);
  if (state.lastMove) {
    const move = /^(?:([0-9][a-z])|[A-Z]\*)([0-9][a-z])/.exec(state.lastMove);
    const squares = [move[1], move[2]].filter(Boolean).sort();
    equal(JSON.stringify(drawn.last.sort()), JSON.stringify(squares), `the last move ${state.lastMove} is highlighted`);
  }
  return state;
}

/** Remembers every text the status line shows from now on. */
async function recordStatus(page) {
  await page.evaluate(() => {
    window.statusSeen = [];
    const status = document.getElementById('status');
    const note = () => window.statusSeen.push(status.querySelector('.status-line')?.textContent ?? '');
    new MutationObserver(note).observe(status, { childList: true, subtree: true, characterData: true });
  });
}

/** Counts the moves the page sends to the server. */
function countMovesSent(page) {
  const sent = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/games\/[^/]+\/moves$/.test(request.url())) sent.push(request.postData());
  });
  return sent;
}

/** A move of the player's from the server's list: a quiet one where it can. */
async function someLegalMove(page, preferred) {
  const { legalMoves } = await serverState(page);
  const move = preferred.find((m) => legalMoves.includes(m)) ?? legalMoves.find((m) => !m.includes('*'));
  check(move, `the player has a board move: ${legalMoves}`);
  const parsed = /^([0-9][a-z])([0-9][a-z])/.exec(move);
  return { from: parsed[1], to: parsed[2], usi: move };
}

test('computer: level 1 replies to a mouse move, live, with the turn shown', async (page) => {
  await newComputerGame(page, 'spear', 1, 'second');
  await waitBody(page, 'computer', 'gote');
  await waitBody(page, 'orientation', 'sente');
  let status = await statusLine(page);
  check(/^Black ☗ to move/.test(status) && /your move/.test(status) && /level 1/.test(status), `the status says it is the player's move: "${status}"`);
  await page.evaluate(() => (window.notReloaded = true));
  await recordStatus(page);
  await dragMove(page, '5d', '5c');
  // The reply comes over the WebSocket: no reload, no click.
  await waitBody(page, 'ply', 2, 15_000);
  check(await page.evaluate(() => window.notReloaded === true), 'the page was not reloaded');
  const seen = await page.evaluate(() => window.statusSeen);
  check(
    seen.some((text) => /^White ☖ to move \(the computer is thinking\)/.test(text)),
    `while the computer thought, the status said so: ${JSON.stringify(seen)}`,
  );
  const state = await boardShowsServer(page);
  equal(state.moves[0].usi, '5d5c', "the player's move");
  equal(state.moves[1].color, 'gote', "the reply is the computer's (White's)");
  const listed = await listedMoves(page);
  equal(JSON.stringify(listed), JSON.stringify(['5d5c', state.moves[1].usi]), 'the move list');
  const lastText = await page.textContent('#move-list button[data-ply="2"]');
  check(lastText.includes(state.moves[1].notation), `the move list shows the reply in notation: "${lastText}"`);
  await waitBody(page, 'turn', 'sente');
  status = await statusLine(page);
  check(/^Black ☗ to move: your move/.test(status) && !/thinking/.test(status), `the status gives the turn back: "${status}"`);
  await screenshot(page, 'spear-computer');
});

test('computer: playing first, it makes the first move by itself', async (page) => {
  await newComputerGame(page, 'spear', 1, 'first');
  await waitBody(page, 'computer', 'sente');
  // The player (White) sits at the bottom.
  await waitBody(page, 'orientation', 'gote');
  await waitBody(page, 'ply', 1, 15_000);
  const state = await boardShowsServer(page);
  equal(state.moves[0].color, 'sente', "the first move is the computer's (Black's)");
  equal(JSON.stringify(await listedMoves(page)), JSON.stringify([state.moves[0].usi]), 'the move list');
  await waitBody(page, 'turn', 'gote');
  const status = await statusLine(page);
  check(/^White ☖ to move: your move/.test(status), `the status says it is White's (the player's) move: "${status}"`);
  // The player answers with the mouse and the computer replies again.
  const move = await someLegalMove(page, ['1b1c', '5a5b', '3a3b']);
  await clickMove(page, move.from, move.to);
  await waitBody(page, 'ply', 3, 15_000);
  const after = await boardShowsServer(page);
  equal(after.moves[1].usi, move.usi, "the player's move");
  equal(after.moves[2].color, 'sente', "the computer's second move");
});

test('computer: undo takes back its reply with the move', async (page) => {
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
  equal(before.length, 4, 'moves listed before the undo');
  check(!(await page.isDisabled('#undo')), 'Undo is offered on the player’s turn');
  await page.click('#undo');
  await waitBody(page, 'ply', 2);
  await waitBody(page, 'turn', 'sente');
  await waitBody(page, 'outcome', '');
  const after = await listedMoves(page);
  equal(JSON.stringify(after), JSON.stringify(before.slice(0, 2)), 'the move list is two moves shorter');
  const status = await statusLine(page);
  check(/^Black ☗ to move: your move/.test(status), `the player is to move again: "${status}"`);
  await boardShowsServer(page);
  // The computer does not move again by itself: it is the player's turn.
  await page.waitForTimeout(1500);
  equal(await body(page, 'ply'), '2', 'moves after the undo and a wait');
  equal((await serverState(page)).ply, 2, "the server's moves after the undo");
  // And the game goes on.
  const again = await someLegalMove(page, ['4e4d', '1e1d', '3e3d', '5e4d']);
  await dragMove(page, again.from, again.to);
  await waitBody(page, 'ply', 4, 15_000);
});

test("computer: the player cannot move the computer's pieces", async (page) => {
  // The computer's replies reach this page only when the test lets them, so
  // that the page is surely waiting for one while the test tries to move.
  let hold = false;
  const held = [];
  let toPage;
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
  equal(await page.locator('sq.dest').count(), 0, "legal targets shown for the computer's piece");
  await click(page, await squareCenter(page, '1c'));
  await drag(page, await squareCenter(page, '1b'), await squareCenter(page, '1c'));
  await page.waitForTimeout(500);
  equal(sent.length, 0, "moves sent after trying the computer's piece");
  equal(await body(page, 'ply'), '0', 'moves on the page');
  // The player moves; until the reply arrives nothing on the board moves.
  hold = true;
  await dragMove(page, '5d', '5c');
  equal(sent.length, 1, 'moves sent');
  const status = await statusLine(page);
  check(/the computer is thinking/.test(status), `the page waits for the computer: "${status}"`);
  check(await page.isDisabled('#undo'), 'Undo waits for the reply');
  await drag(page, await squareCenter(page, '1b'), await squareCenter(page, '1c')); // the computer's soldier
  await drag(page, await squareCenter(page, '4e'), await squareCenter(page, '4d')); // the player's own gold
  await click(page, await squareCenter(page, '4e'));
  await page.waitForTimeout(200);
  equal(await page.locator('sq.dest').count(), 0, 'legal targets shown while the computer thinks');
  await click(page, await squareCenter(page, '4d'));
  await page.waitForTimeout(500);
  equal(sent.length, 1, 'moves sent while the computer thinks');
  equal(await body(page, 'ply'), '1', 'moves on the page while the computer thinks');
  // The reply arrives: the player's pieces move again, the computer's still not.
  hold = false;
  check(toPage, 'the page opened a WebSocket');
  for (const message of held.splice(0)) toPage.send(message);
  await waitBody(page, 'ply', 2, 15_000);
  await waitBody(page, 'turn', 'sente');
  const state = await boardShowsServer(page);
  const reply = /([0-9][a-z])\+?$/.exec(state.moves[1].usi)[1]; // where the computer's piece now stands
  await click(page, await squareCenter(page, reply));
  await page.waitForTimeout(200);
  equal(await page.locator('sq.dest').count(), 0, 'legal targets shown for the piece the computer just moved');
  const move = await someLegalMove(page, ['4e4d', '1e1d', '3e3d', '5e4d']);
  await clickMove(page, move.from, move.to);
  equal(sent.length, 2, 'moves sent');
  await waitBody(page, 'ply', 4, 15_000);
});

test('phone: the board fits a narrow screen', async (page) => {
  await newGame(page, 'shogi');
  const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
  check(fits, 'no sideways scrolling');
  const box = await page.locator('#board').boundingBox();
  check(box.x >= 0 && box.x + box.width <= 390, `the board is inside the screen: ${JSON.stringify(box)}`);
  await clickMove(page, '7g', '7f');
  await screenshot(page, 'phone-shogi');
}, { width: 390, height: 844 });

// ---- games between two machines (each machine a fresh browser context) ----

/** Other machines for one test: pages in fresh browser contexts (their own localStorage), closed after it. */
class Machines {
  constructor(browser, url, errors) {
    this.browser = browser;
    this.url = url;
    this.errors = errors;
    this.opened = [];
  }

  /** A page on another machine, opened at `address`: a whole link, or a `#/…` address on this server. */
  async open(address, name) {
    const context = await this.browser.newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    this.opened.push({ context, page, name });
    page.on('pageerror', (error) => this.errors.push(`${name}: ${error.message}`));
    await page.goto(address.startsWith('#') ? this.url + address : address);
    await page.waitForFunction(() => !!document.body.dataset.gameId, null, { timeout: 10_000 });
    return page;
  }

  async screenshots(file) {
    for (const { page, name } of this.opened)
      await page.screenshot({ path: file.replace(/\.png$/, `-${name}.png`), fullPage: true }).catch(() => {});
  }

  async close() {
    for (const { context } of this.opened.splice(0)) await context.close().catch(() => {});
  }
}

/** Creates a game through the API from the page (the answer holds the seat tokens). */
async function createGame(page, request) {
  const { status, state } = await page.evaluate(async (requestBody) => {
    const response = await fetch('/api/games', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(requestBody),
    });
    return { status: response.status, state: await response.json() };
  }, request);
  equal(status, 201, `a new game (${JSON.stringify(state).slice(0, 200)})`);
  return state;
}

/** Starts a game with a person on another machine from the top bar; returns the links it offers. */
async function newSharedGame(page, variant, plays) {
  const before = await body(page, 'gameId');
  await page.selectOption('#variant', variant);
  await page.selectOption('#opponent', 'remote');
  check(await page.isVisible('#my-side'), 'the side to play can be chosen');
  check(!(await page.isVisible('#level')), 'no level for a game between people');
  await page.selectOption('#my-side', plays);
  await page.selectOption('#time-control', '');
  await page.click('#new-game-button');
  await page
    .waitForFunction((old) => document.body.dataset.gameId !== old && document.body.dataset.mode === 'shared', before, { timeout: 8000 })
    .catch(async () => {
      throw new Failure(`no game between two machines started (message: "${await page.textContent('#message')}")`);
    });
  await page.waitForSelector('#invite:not([hidden]) #link-watch', { timeout: 3000 });
  return page.$$eval('#invite-links input', (inputs) => Object.fromEntries(inputs.map((input) => [input.id, input.value])));
}

async function allAtPly(pages, ply) {
  for (const page of pages) await waitBody(page, 'ply', ply);
}

test('two machines: a whole Spear game through seat links, watched by a third', async (page, context, machines) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const links = await newSharedGame(page, 'spear', 'first');
  const id = await body(page, 'gameId');
  await waitBody(page, 'seats', 'sente');
  await waitBody(page, 'orientation', 'sente');
  const opponentLink = links['link-opponent-gote'] ?? '';
  check(new RegExp(`#/game/${id}/gote/[0-9a-f]{32}$`).test(opponentLink), `the opponent's seat link: ${JSON.stringify(links)}`);
  check((links['link-watch'] ?? '').endsWith(`#/game/${id}`), `the spectator link: ${links['link-watch']}`);
  check(new RegExp(`#/game/${id}/sente/[0-9a-f]{32}$`).test(links['link-own-sente'] ?? ''), `the creator's own seat link: ${JSON.stringify(links)}`);
  // Copy puts the link on the clipboard.
  const copyButton = '#invite-links .invite-link[data-kind="opponent"] button';
  await page.click(copyButton);
  await page.waitForFunction((selector) => document.querySelector(selector).textContent === 'Copied', copyButton, { timeout: 3000 });
  equal(await page.evaluate(() => navigator.clipboard.readText()), opponentLink, 'the link copied');

  // The other player opens the seat link on another machine.
  const other = await machines.open(opponentLink, 'gote');
  equal(await other.evaluate(() => location.hash), `#/game/${id}`, 'the address after opening the seat link (no token)');
  await waitBody(other, 'seats', 'gote');
  await waitBody(other, 'orientation', 'gote');
  check((await other.textContent('#seat-note')).includes('You play White ☖'), 'the second player is told its side');
  // A third machine watches.
  const watcher = await machines.open(links['link-watch'], 'watcher');
  await waitBody(watcher, 'seats', '');
  check(/You are watching this game/.test(await watcher.textContent('#seat-note')), 'the spectator is told it watches');
  check((await watcher.isHidden('#undo')) && (await watcher.isHidden('#resign')), 'the spectator has no Undo nor Resign');
  check(/^Black ☗ to move: your move/.test(await statusLine(page)), `the first player's turn: "${await statusLine(page)}"`);
  check(/waiting for your opponent/.test(await statusLine(other)), `the second player waits: "${await statusLine(other)}"`);
  const pages = [page, other, watcher];
  const sentByWatcher = countMovesSent(watcher);
  const sentByBlack = countMovesSent(page);
  const sentByWhite = countMovesSent(other);

  // Black's spear takes the soldier (and promotes): every page shows it.
  await clickMove(page, '1e', '1b');
  await allAtPly(pages, 1);
  await boardShowsServer(watcher);
  // The spectator cannot move; Black cannot move White's pieces.
  await drag(watcher, await squareCenter(watcher, '3a'), await squareCenter(watcher, '3b'));
  await click(watcher, await squareCenter(watcher, '3a'));
  await watcher.waitForTimeout(200);
  equal(await watcher.locator('sq.dest').count(), 0, 'legal targets shown to the spectator');
  await drag(page, await squareCenter(page, '3a'), await squareCenter(page, '3b'));
  await page.waitForTimeout(300);
  equal(sentByBlack.length, 1, "moves sent by Black (after trying White's silver)");
  await dragMove(other, '3a', '3b');
  await allAtPly(pages, 2);
  // Black drops the soldier it took.
  await click(page, await handPieceCenter(page, 'sente', 'pawn'));
  await page.waitForSelector('sq.dest', { timeout: 3000 });
  await click(page, await squareCenter(page, '3c'));
  await allAtPly(pages, 3);
  await clickMove(other, '2a', '2b');
  await allAtPly(pages, 4);
  await boardShowsServer(other);
  await screenshot(other, 'two-machines');
  // The promoted spear takes the king.
  await dragMove(page, '1b', '1a');
  for (const shown of pages) {
    await waitBody(shown, 'outcome', 'king-captured');
    await shown.waitForSelector('#result:not([hidden])', { timeout: 5000 });
    const title = await shown.textContent('#result-title');
    check(/Black ☗ wins/.test(title), `every page names the winner: "${title}"`);
  }
  await boardShowsServer(watcher);
  equal(sentByWatcher.length, 0, 'moves sent by the spectator');
  equal(sentByWhite.length, 2, 'moves sent by White');
  // A game between two machines is not taken back once over.
  await page.click('#result-close');
  equal(await page.textContent('#undo'), 'Ask to take back', 'the Undo button in a shared game');
  check(await page.isDisabled('#undo'), 'no takeback after the end');
});

test('two machines: a takeback accepted, another declined, then a resignation', async (page, context, machines) => {
  const links = await newSharedGame(page, 'spear', 'first');
  const other = await machines.open(links['link-opponent-gote'], 'gote');
  await waitBody(other, 'seats', 'gote');
  const pages = [page, other];
  await dragMove(page, '5d', '5c');
  await allAtPly(pages, 1);
  await clickMove(other, '1b', '1c');
  await allAtPly(pages, 2);
  // White asks to take its move back; Black accepts.
  equal(await other.textContent('#undo'), 'Ask to take back', "White's Undo button");
  await other.click('#undo');
  await waitBody(other, 'takeback', 'gote');
  await waitBody(page, 'takeback', 'gote');
  check(/waiting for Black ☗/.test(await other.textContent('#takeback')), `White sees its request wait: "${await other.textContent('#takeback')}"`);
  check(await other.isDisabled('#undo'), 'White cannot ask twice');
  check(/White ☖ asks to take back a move/.test(await page.textContent('#takeback')), `Black sees the request: "${await page.textContent('#takeback')}"`);
  await page.click('#takeback-accept');
  await allAtPly(pages, 1);
  for (const shown of pages) {
    await waitBody(shown, 'takeback', '');
    await waitBody(shown, 'turn', 'gote');
    equal(JSON.stringify(await listedMoves(shown)), JSON.stringify(['5d5c']), 'the moves after the takeback');
    check(await shown.isHidden('#takeback'), 'the request is gone');
  }
  check(/accepted/.test(await other.textContent('#message')), `White is told: "${await other.textContent('#message')}"`);
  await boardShowsServer(other);
  // Again; this time Black declines and the move stays.
  await clickMove(other, '1b', '1c');
  await allAtPly(pages, 2);
  await other.click('#undo');
  await waitBody(page, 'takeback', 'gote');
  await page.click('#takeback-decline');
  for (const shown of pages) await waitBody(shown, 'takeback', '');
  await allAtPly(pages, 2);
  await other.waitForFunction(() => /declined/.test(document.getElementById('message').textContent), null, { timeout: 5000 });
  // Black asks in turn, and White's move drops the request.
  await dragMove(page, '4e', '4d');
  await allAtPly(pages, 3);
  await page.click('#undo');
  await waitBody(other, 'takeback', 'sente');
  await dragMove(other, '2a', '2b');
  await allAtPly(pages, 4);
  for (const shown of pages) await waitBody(shown, 'takeback', '');
  // White resigns: its seat's side, whoever is to move.
  await other.click('#resign');
  for (const shown of pages) {
    await waitBody(shown, 'outcome', 'resignation');
    await shown.waitForSelector('#result:not([hidden])', { timeout: 5000 });
    check(/Black ☗ wins/.test(await shown.textContent('#result-title')), 'Black wins by resignation');
  }
});

test('clock: the page counts down and shows the timeout the server declares', async (page) => {
  // A clock from the top bar: both clocks full, standing until each side has moved.
  await page.selectOption('#variant', 'spear');
  await page.selectOption('#opponent', 'human');
  await page.selectOption('#time-control', '300+3+0');
  const before = await body(page, 'gameId');
  await page.click('#new-game-button');
  await page.waitForFunction((old) => document.body.dataset.gameId !== old, before, { timeout: 8000 });
  await waitBody(page, 'clock', 'standing');
  equal(await page.textContent('#clock-bottom .clock-time'), '5:00', 'the bottom clock');
  equal(await page.textContent('#clock-top .clock-time'), '5:00', 'the top clock');
  check(/\+3s/.test(await page.textContent('#clock-bottom .clock-extra')), 'the increment is shown');
  await page.selectOption('#time-control', '');

  // Two seconds each: the clock runs once each side has moved, then nobody moves.
  const state = await createGame(page, { variant: 'spear', clock: { initial: 2 } });
  check(state.seats?.sente && state.seats?.gote, `a local game gives both seats: ${JSON.stringify(state.seats)}`);
  await page.goto(`${page.url().replace(/#.*$/, '')}#/game/${state.id}/sente/${state.seats.sente}`);
  await waitBody(page, 'gameId', state.id);
  await page.goto(`${page.url().replace(/#.*$/, '')}#/game/${state.id}/gote/${state.seats.gote}`);
  await waitBody(page, 'seats', 'sente gote');
  equal(await page.evaluate(() => location.hash), `#/game/${state.id}`, 'the address after the seat links');
  await dragMove(page, '5d', '5c');
  await clickMove(page, '1b', '1c');
  await waitBody(page, 'clock', 'sente');
  await page.waitForSelector('#clock-bottom[data-running="true"][data-low="true"]', { timeout: 2000 });
  const seconds = async () => Number(/0:(\d\d\.\d)/.exec(await page.textContent('#clock-bottom .clock-time'))?.[1]);
  const first = await seconds();
  await page.waitForTimeout(400);
  const second = await seconds();
  check(first <= 2 && second < first, `Black's clock goes down: ${first} then ${second}`);
  equal(await page.textContent('#clock-top .clock-time'), '0:02.0', "White's clock stands");
  await waitBody(page, 'outcome', 'timeout', 8000);
  await page.waitForSelector('#result:not([hidden])', { timeout: 5000 });
  check(/White ☖ wins/.test(await page.textContent('#result-title')), 'White wins on time');
  check(/time/i.test(await page.textContent('#result-detail')), `the reason: "${await page.textContent('#result-detail')}"`);
  equal(await page.textContent('#clock-bottom .clock-time'), '0:00.0', "Black's clock");
  await waitBody(page, 'clock', 'standing');
  equal((await serverState(page)).outcome?.reason, 'timeout', "the server's ending");
});

test('two machines: a seat link with a forged token cannot move', async (page, context, machines) => {
  const state = await createGame(page, { variant: 'spear', mode: 'shared' });
  const forged = '0123456789abcdef0123456789abcdef';
  const intruder = await machines.open(`#/game/${state.id}/sente/${forged}`, 'intruder');
  equal(await intruder.evaluate(() => location.hash), `#/game/${state.id}`, 'the address after the forged link');
  await waitBody(intruder, 'seats', 'sente');
  await drag(intruder, await squareCenter(intruder, '5d'), await squareCenter(intruder, '5c'));
  await intruder.waitForFunction(() => /seat token/.test(document.getElementById('message').textContent), null, { timeout: 5000 }).catch(async () => {
    throw new Failure(`the refusal is shown: "${await intruder.textContent('#message')}"`);
  });
  check((await intruder.getAttribute('#message', 'class')).includes('error'), 'the refusal is shown as an error');
  await waitBody(intruder, 'ply', 0);
  await boardShowsServer(intruder);
  const after = await serverState(page);
  equal(after.ply, 0, "the server's moves");
  equal(after.version, state.version, "the game's version");
  // The real seat still plays.
  await page.goto(`${page.url().replace(/#.*$/, '')}#/game/${state.id}/sente/${state.seats.sente}`);
  await waitBody(page, 'seats', 'sente');
  await dragMove(page, '5d', '5c');
  await waitBody(intruder, 'ply', 1);
});

// ---- running ----

await mkdir(output, { recursive: true });
const { child, url } = await startServer();
let passed = 0;
let failed = 0;
let browser;
let context;
try {
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  context = await browser.newContext({ acceptDownloads: true, viewport: VIEWPORT });
  for (const { name, run, viewport } of tests) {
    if (only && !name.includes(only)) continue;
    const page = await context.newPage();
    if (viewport) await page.setViewportSize(viewport);
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const machines = new Machines(browser, url, errors);
    const started = Date.now();
    try {
      await page.goto(url);
      await page.waitForFunction(() => !!document.body.dataset.gameId, null, { timeout: 10_000 });
      await run(page, context, machines);
      check(errors.length === 0, `errors in the page: ${errors.join('; ')}`);
      passed++;
      console.log(`ok   ${name} (${Date.now() - started} ms)`);
    } catch (error) {
      failed++;
      const file = join(output, `failure-${name.replace(/[^a-z0-9]+/gi, '-')}.png`);
      await page.screenshot({ path: file, fullPage: true }).catch(() => {});
      console.log(`FAIL ${name}: ${error instanceof Failure ? error.message : error.stack}`);
      console.log(`     screenshot: ${file}`);
      await machines.screenshots(file);
    } finally {
      await machines.close();
      await page.close().catch(() => {});
    }
  }
} finally {
  await context?.close().catch(() => {});
  await browser?.close().catch(() => {});
  child.kill('SIGTERM');
}
await writeFile(join(output, 'summary.txt'), `${passed} passed, ${failed} failed\n`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
