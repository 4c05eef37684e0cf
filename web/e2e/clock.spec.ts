// The clocks: a time control chosen in the top bar, and a 2-second clock run
// out after two moves (the page counting down, then the server's timeout).

import { test, expect } from './fixtures';
import { body, click, clickMove, createGame, dragMove, pageBase, serverState, squareCenter, waitBody } from './helpers';

test('clock: the page counts down and shows the timeout the server declares', async ({ page }) => {
  // A clock from the top bar: both clocks full, standing until each side has moved.
  await page.selectOption('#variant', 'spear');
  await page.selectOption('#opponent', 'human');
  await page.selectOption('#time-control', '300+3+0');
  const before = await body(page, 'gameId');
  await page.click('#new-game-button');
  await page.waitForFunction((old) => document.body.dataset.gameId !== old, before, { timeout: 8000 });
  await waitBody(page, 'clock', 'standing');
  expect(await page.textContent('#clock-bottom .clock-time'), 'the bottom clock').toBe('5:00');
  expect(await page.textContent('#clock-top .clock-time'), 'the top clock').toBe('5:00');
  expect(/\+3s/.test((await page.textContent('#clock-bottom .clock-extra')) ?? ''), 'the increment is shown').toBe(true);
  await page.selectOption('#time-control', '');

  // Two seconds each: the clock runs once each side has moved, then nobody moves.
  const state = await createGame(page, { variant: 'spear', clock: { initial: 2 } });
  expect(!!(state.seats?.sente && state.seats?.gote), `a local game gives both seats: ${JSON.stringify(state.seats)}`).toBe(true);
  await page.goto(`${pageBase(page)}#/game/${state.id}/sente/${state.seats!.sente}`);
  await waitBody(page, 'gameId', state.id);
  await page.goto(`${pageBase(page)}#/game/${state.id}/gote/${state.seats!.gote}`);
  await waitBody(page, 'seats', 'sente gote');
  expect(await page.evaluate(() => location.hash), 'the address after the seat links').toBe(`#/game/${state.id}`);
  await dragMove(page, '5d', '5c');
  await clickMove(page, '1b', '1c');
  await waitBody(page, 'clock', 'sente');
  // Spear between people is drawn as its seed draws it: Black (Sente) on top.
  await waitBody(page, 'orientation', 'gote');
  await page.waitForSelector('#clock-top[data-running="true"][data-low="true"]', { timeout: 2000 });
  const seconds = async () => Number(/0:(\d\d\.\d)/.exec((await page.textContent('#clock-top .clock-time')) ?? '')?.[1]);
  const first = await seconds();
  await page.waitForTimeout(400);
  const second = await seconds();
  expect(first <= 2 && second < first, `Black's clock goes down: ${first} then ${second}`).toBe(true);
  expect(await page.textContent('#clock-bottom .clock-time'), "White's clock stands").toBe('0:02.0');
  await waitBody(page, 'outcome', 'timeout', 8000);
  await page.waitForSelector('#result:not([hidden])', { timeout: 5000 });
  expect(/White ☖ wins/.test((await page.textContent('#result-title')) ?? ''), 'White wins on time').toBe(true);
  const detail = (await page.textContent('#result-detail')) ?? '';
  expect(/time/i.test(detail), `the reason: "${detail}"`).toBe(true);
  expect(await page.textContent('#clock-top .clock-time'), "Black's clock").toBe('0:00.0');
  await waitBody(page, 'clock', 'standing');
  expect((await serverState(page)).outcome?.reason, "the server's ending").toBe('timeout');
});

test('clock: a piece picked up stays picked up while the clock counts down', async ({ page }) => {
  // The running clock draws the page ten times a second; none of those
  // drawings may drop the piece the player has selected.
  const state = await createGame(page, { variant: 'spear', clock: { initial: 60 } });
  await page.goto(`${pageBase(page)}#/game/${state.id}/sente/${state.seats!.sente}`);
  await waitBody(page, 'gameId', state.id);
  await page.goto(`${pageBase(page)}#/game/${state.id}/gote/${state.seats!.gote}`);
  await waitBody(page, 'seats', 'sente gote');
  await dragMove(page, '5d', '5c');
  await dragMove(page, '1b', '1c');
  await waitBody(page, 'clock', 'sente');
  await click(page, await squareCenter(page, '4e'));
  await page.waitForSelector('sq.dest', { timeout: 3000 });
  const running = '.clock[data-running="true"] .clock-time';
  const before = await page.textContent(running);
  await page.waitForTimeout(1200);
  expect(await page.$$eval('sq.dest', (squares) => squares.length), 'the legal targets are still shown').toBeGreaterThan(0);
  expect(await page.$('sq.selected'), 'the piece is still selected').toBeTruthy();
  const after = await page.textContent(running);
  expect(after, 'the running clock went on').not.toBe(before);
  await click(page, await squareCenter(page, '4d'));
  await waitBody(page, 'ply', 3);
});
