// Games between two machines, each machine a fresh browser context (its own
// localStorage, so its own seats): a whole Spear game through the seat links
// watched by a third, takebacks accepted, declined and dropped, a
// resignation, and a seat link with a forged token refused.

import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import {
  body,
  boardShowsServer,
  click,
  clickMove,
  countMovesSent,
  createGame,
  drag,
  dragMove,
  handPieceCenter,
  listedMoves,
  pageBase,
  screenshot,
  serverState,
  squareCenter,
  statusLine,
  waitBody,
} from './helpers';

/** Starts a game with a person on another machine from the top bar; returns the links it offers. */
async function newSharedGame(page: Page, variant: string, plays: 'first' | 'second'): Promise<Record<string, string>> {
  const before = await body(page, 'gameId');
  await page.selectOption('#variant', variant);
  await page.selectOption('#opponent', 'remote');
  expect(await page.isVisible('#my-side'), 'the side to play can be chosen').toBe(true);
  expect(await page.isVisible('#level'), 'no level for a game between people').toBe(false);
  await page.selectOption('#my-side', plays);
  await page.selectOption('#time-control', '');
  await page.click('#new-game-button');
  await page
    .waitForFunction((old) => document.body.dataset.gameId !== old && document.body.dataset.mode === 'shared', before, { timeout: 8000 })
    .catch(async () => {
      throw new Error(`no game between two machines started (message: "${await page.textContent('#message')}")`);
    });
  await page.waitForSelector('#invite:not([hidden]) #link-watch', { timeout: 3000 });
  return page.$$eval('#invite-links input', (inputs) =>
    Object.fromEntries((inputs as HTMLInputElement[]).map((input) => [input.id, input.value])),
  );
}

async function allAtPly(pages: Page[], ply: number): Promise<void> {
  for (const page of pages) await waitBody(page, 'ply', ply);
}

const text = async (page: Page, selector: string): Promise<string> => (await page.textContent(selector)) ?? '';

test('two machines: a whole Spear game through seat links, watched by a third', async ({ page, context, machines }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const links = await newSharedGame(page, 'spear', 'first');
  const id = await body(page, 'gameId');
  await waitBody(page, 'seats', 'sente');
  await waitBody(page, 'orientation', 'sente');
  const opponentLink = links['link-opponent-gote'] ?? '';
  expect(new RegExp(`#/game/${id}/gote/[0-9a-f]{32}$`).test(opponentLink), `the opponent's seat link: ${JSON.stringify(links)}`).toBe(true);
  expect((links['link-watch'] ?? '').endsWith(`#/game/${id}`), `the spectator link: ${links['link-watch']}`).toBe(true);
  expect(
    new RegExp(`#/game/${id}/sente/[0-9a-f]{32}$`).test(links['link-own-sente'] ?? ''),
    `the creator's own seat link: ${JSON.stringify(links)}`,
  ).toBe(true);
  // Copy puts the link on the clipboard.
  const copyButton = '#invite-links .invite-link[data-kind="opponent"] button';
  await page.click(copyButton);
  await page.waitForFunction((selector) => document.querySelector(selector)!.textContent === 'Copied', copyButton, { timeout: 3000 });
  expect(await page.evaluate(() => navigator.clipboard.readText()), 'the link copied').toBe(opponentLink);

  // The other player opens the seat link on another machine.
  const other = await machines.open(opponentLink, 'gote');
  expect(await other.evaluate(() => location.hash), 'the address after opening the seat link (no token)').toBe(`#/game/${id}`);
  await waitBody(other, 'seats', 'gote');
  await waitBody(other, 'orientation', 'gote');
  expect((await text(other, '#seat-note')).includes('You play White ☖'), 'the second player is told its side').toBe(true);
  // A third machine watches.
  const watcher = await machines.open(links['link-watch'], 'watcher');
  await waitBody(watcher, 'seats', '');
  expect(/You are watching this game/.test(await text(watcher, '#seat-note')), 'the spectator is told it watches').toBe(true);
  expect((await watcher.isHidden('#undo')) && (await watcher.isHidden('#resign')), 'the spectator has no Undo nor Resign').toBe(true);
  expect(/^Black ☗ to move: your move/.test(await statusLine(page)), `the first player's turn: "${await statusLine(page)}"`).toBe(true);
  expect(/waiting for your opponent/.test(await statusLine(other)), `the second player waits: "${await statusLine(other)}"`).toBe(true);
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
  expect(await watcher.locator('sq.dest').count(), 'legal targets shown to the spectator').toBe(0);
  await drag(page, await squareCenter(page, '3a'), await squareCenter(page, '3b'));
  await page.waitForTimeout(300);
  expect(sentByBlack.length, "moves sent by Black (after trying White's silver)").toBe(1);
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
    const title = await text(shown, '#result-title');
    expect(/Black ☗ wins/.test(title), `every page names the winner: "${title}"`).toBe(true);
  }
  await boardShowsServer(watcher);
  expect(sentByWatcher.length, 'moves sent by the spectator').toBe(0);
  expect(sentByWhite.length, 'moves sent by White').toBe(2);
  // A game between two machines is not taken back once over.
  await page.click('#result-close');
  expect(await page.textContent('#undo'), 'the Undo button in a shared game').toBe('Ask to take back');
  expect(await page.isDisabled('#undo'), 'no takeback after the end').toBe(true);
});

test('two machines: a takeback accepted, another declined, then a resignation', async ({ page, machines }) => {
  const links = await newSharedGame(page, 'spear', 'first');
  const other = await machines.open(links['link-opponent-gote'], 'gote');
  await waitBody(other, 'seats', 'gote');
  const pages = [page, other];
  await dragMove(page, '5d', '5c');
  await allAtPly(pages, 1);
  await clickMove(other, '1b', '1c');
  await allAtPly(pages, 2);
  // White asks to take its move back; Black accepts.
  expect(await other.textContent('#undo'), "White's Undo button").toBe('Ask to take back');
  await other.click('#undo');
  await waitBody(other, 'takeback', 'gote');
  await waitBody(page, 'takeback', 'gote');
  expect(/waiting for Black ☗/.test(await text(other, '#takeback')), `White sees its request wait: "${await text(other, '#takeback')}"`).toBe(true);
  expect(await other.isDisabled('#undo'), 'White cannot ask twice').toBe(true);
  expect(
    /White ☖ asks to take back a move/.test(await text(page, '#takeback')),
    `Black sees the request: "${await text(page, '#takeback')}"`,
  ).toBe(true);
  await page.click('#takeback-accept');
  await allAtPly(pages, 1);
  for (const shown of pages) {
    await waitBody(shown, 'takeback', '');
    await waitBody(shown, 'turn', 'gote');
    expect(JSON.stringify(await listedMoves(shown)), 'the moves after the takeback').toBe(JSON.stringify(['5d5c']));
    expect(await shown.isHidden('#takeback'), 'the request is gone').toBe(true);
  }
  expect(/accepted/.test(await text(other, '#message')), `White is told: "${await text(other, '#message')}"`).toBe(true);
  await boardShowsServer(other);
  // Again; this time Black declines and the move stays.
  await clickMove(other, '1b', '1c');
  await allAtPly(pages, 2);
  await other.click('#undo');
  await waitBody(page, 'takeback', 'gote');
  await page.click('#takeback-decline');
  for (const shown of pages) await waitBody(shown, 'takeback', '');
  await allAtPly(pages, 2);
  await other.waitForFunction(() => /declined/.test(document.getElementById('message')!.textContent ?? ''), null, { timeout: 5000 });
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
    expect(/Black ☗ wins/.test(await text(shown, '#result-title')), 'Black wins by resignation').toBe(true);
  }
});

test('two machines: a seat link with a forged token cannot move', async ({ page, machines }) => {
  const state = await createGame(page, { variant: 'spear', mode: 'shared' });
  const forged = '0123456789abcdef0123456789abcdef';
  const intruder = await machines.open(`#/game/${state.id}/sente/${forged}`, 'intruder');
  expect(await intruder.evaluate(() => location.hash), 'the address after the forged link').toBe(`#/game/${state.id}`);
  await waitBody(intruder, 'seats', 'sente');
  await drag(intruder, await squareCenter(intruder, '5d'), await squareCenter(intruder, '5c'));
  await intruder
    .waitForFunction(() => /seat token/.test(document.getElementById('message')!.textContent ?? ''), null, { timeout: 5000 })
    .catch(async () => {
      throw new Error(`the refusal is shown: "${await intruder.textContent('#message')}"`);
    });
  expect(((await intruder.getAttribute('#message', 'class')) ?? '').includes('error'), 'the refusal is shown as an error').toBe(true);
  await waitBody(intruder, 'ply', 0);
  await boardShowsServer(intruder);
  const after = await serverState(page);
  expect(after.ply, "the server's moves").toBe(0);
  expect(after.version, "the game's version").toBe(state.version);
  // The real seat still plays.
  await page.goto(`${pageBase(page)}#/game/${state.id}/sente/${state.seats!.sente}`);
  await waitBody(page, 'seats', 'sente');
  await dragMove(page, '5d', '5c');
  await waitBody(intruder, 'ply', 1);
});
