// Mate search on the board: "Find mate" in a game between people at one
// screen solves a tsume, its line is stepped through on the board without
// changing the game; it is not offered against the computer while the game
// runs, and the server refuses it there too.

import { test, expect } from './fixtures';
import { body, boardShowsPosition, boardShowsServer, createGame, pageBase, screenshot, serverState, statusLine, waitBody } from './helpers';

/** A mate in 9 of the suite (crates/mate/tests/data/tsume.txt). */
const MATE_IN_9 = '9/1k7/n8/+PP7/1B1G5/9/9/9/9 b S2rb3g3s3n4l16p 1';

interface Found {
  answer: string;
  length: number;
  line: { usi: string; notation: string; position: string }[];
}

test('mate: Find mate solves a tsume and steps through its line as a variation', async ({ page }) => {
  const state = await createGame(page, { variant: 'shogi', opponent: { kind: 'human' }, position: MATE_IN_9 });
  await page.goto(`${pageBase(page)}#/game/${state.id}`);
  await waitBody(page, 'gameId', state.id);
  await expect(page.locator('#analysis-panel #find-mate'), 'Find mate is part of analysis').toBeVisible();
  await page.click('#find-mate');
  await page.waitForSelector('.mate-line button', { timeout: 20000 });
  const summary = (await page.textContent('.mate-summary')) ?? '';
  expect(/^Mate in 9 /.test(summary), `the answer: "${summary}"`).toBe(true);
  const found = await page.evaluate(
    async (id): Promise<Found> => (await fetch(`/api/games/${id}/mate?ply=0&seconds=5`)).json(),
    state.id,
  );
  expect(found.answer).toBe('mate');
  const listed = await page.$$eval('.mate-line button', (buttons) => buttons.map((b) => b.textContent));
  expect(listed, 'the line in Japanese notation').toEqual(found.line.map((move) => move.notation));
  expect(listed[0]?.startsWith('☗'), `sente begins: ${listed[0]}`).toBe(true);

  // Steps of the line show on the board; the game itself does not change.
  for (const step of [2, 8]) {
    await page.click(`.mate-line button[data-step="${step}"]`);
    await waitBody(page, 'mateStep', step);
    await boardShowsPosition(page, found.line[step].position, found.line[step].usi);
  }
  expect((await serverState(page)).ply, 'the game is unchanged').toBe(0);
  await page.click('.mate-line button[data-step="4"]');
  await waitBody(page, 'mateStep', 4);
  const status = await statusLine(page);
  expect(/^Mate line: move 5 of 9 \(the game is unchanged\)$/.test(status), `the status says so: "${status}"`).toBe(true);
  await screenshot(page, 'shogi-mate');
  await page.click('#mate-back');
  await waitBody(page, 'mateStep', '');
  await boardShowsServer(page);
});

test('mate: one counter while a mate line is shown from an earlier position, its text of one width', async ({ page }) => {
  const state = await createGame(page, { variant: 'shogi', opponent: { kind: 'human' }, position: MATE_IN_9 });
  const found = await page.evaluate(
    async (id): Promise<Found> => (await fetch(`/api/games/${id}/mate?ply=0&seconds=5`)).json(),
    state.id,
  );
  // Two moves of the line are played: the game is at move 2, the mate is looked for at move 0.
  for (const [ply, side] of [[0, 'sente'], [1, 'gote']] as const) {
    const answer = await page.evaluate(
      async ([id, move, at, token]) =>
        (await fetch(`/api/games/${id}/moves`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ move, ply: at, token }) })).status,
      [state.id, found.line[ply].usi, ply, state.seats![side]] as const,
    );
    expect(answer, `move ${ply + 1} played`).toBe(200);
  }
  await page.goto(`${pageBase(page)}#/game/${state.id}`);
  await waitBody(page, 'ply', 2);
  await page.locator('body').press('Home');
  await waitBody(page, 'shownPly', 0);
  expect(await statusLine(page)).toContain('Move 0 of 2');
  await page.click('#find-mate');
  await page.waitForSelector('.mate-line button', { timeout: 20000 });
  const sizes: { status: number; width: number; button: number }[] = [];
  for (const step of [0, 1, 7, 8]) {
    await page.click(`.mate-line button[data-step="${step}"]`);
    await waitBody(page, 'mateStep', step);
    const status = await statusLine(page);
    expect(status, 'the mate line’s counter alone').toMatch(new RegExp(`^Mate line: move ${step + 1} of 9 \\(the game is unchanged\\)$`));
    sizes.push(
      await page.evaluate(() => ({
        status: document.getElementById('status')!.getBoundingClientRect().height,
        width: document.querySelector('#status .variation')!.getBoundingClientRect().width,
        button: document.querySelector('.mate-line button[data-step="0"]')!.getBoundingClientRect().top,
      })),
    );
  }
  // The text keeps its width and the line's buttons their place from step to step.
  for (const size of sizes) expect(size, 'the status and the mate line stay put').toEqual(sizes[0]);
  await page.click('#mate-back');
  await waitBody(page, 'mateStep', '');
  expect(await statusLine(page)).toContain('Move 0 of 2');
});

test('mate: not offered against the computer while the game runs, and refused by the server', async ({ page }) => {
  const state = await createGame(page, {
    variant: 'shogi',
    opponent: { kind: 'computer', level: 1, color: 'gote' },
    position: MATE_IN_9,
  });
  await page.goto(`${pageBase(page)}#/game/${state.id}`);
  await waitBody(page, 'gameId', state.id);
  await expect(page.locator('#find-mate')).toBeHidden();
  const status = await page.evaluate(async (id) => (await fetch(`/api/games/${id}/mate`)).status, state.id);
  expect(status, 'the server refuses').toBe(403);
  expect(await body(page, 'mateStep')).toBe('');
});
