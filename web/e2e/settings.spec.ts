// The page's settings: the notation of shogi moves (the list follows the
// choice, from the notations the server sends), the theme and board
// colours (kept across a reload), the piece sets, and the sounds, heard
// through a Web Audio spy that stands in for the browser's AudioContext.

import { test, expect } from './fixtures';
import { clickMove, dragMove, newGame, screenshot, waitBody } from './helpers';

/** The texts of the move list's moves (without the start). */
const listTexts = (page: import('@playwright/test').Page): Promise<string[]> =>
  page.$$eval('#move-list button[data-ply]', (buttons) =>
    (buttons as HTMLButtonElement[]).filter((b) => b.dataset.ply !== '0').map((b) => b.textContent ?? ''),
  );

test('settings: shogi moves in each notation, from the same game', async ({ page }) => {
  await newGame(page, 'shogi');
  await dragMove(page, '7g', '7f');
  await clickMove(page, '3c', '3d');
  await waitBody(page, 'ply', 2);
  const expected: [string, string[]][] = [
    ['kif', ['1. ☗７六歩(77)', '2. ☖３四歩(33)']],
    ['japanese', ['1. ▲７六歩', '2. △３四歩']],
    ['western', ['1. P-7f', '2. P-3d']],
    ['kitaoKawasaki', ['1. 歩-76', '2. 歩-34']],
    ['usi', ['1. 7g7f', '2. 3c3d']],
  ];
  for (const [notation, moves] of expected) {
    await page.selectOption('#shogi-notation', notation);
    expect(await listTexts(page), notation).toEqual(moves);
  }
  await page.selectOption('#shogi-notation', 'western');
  await page.reload();
  await waitBody(page, 'ply', 2);
  expect(await listTexts(page), 'the choice is kept').toEqual(['1. P-7f', '2. P-3d']);
  await page.selectOption('#shogi-notation', 'kif');
});

test('settings: dark page, board colours and piece sets, kept across a reload', async ({ page }) => {
  await newGame(page, 'shogi');
  await page.click('#settings-panel summary');
  await page.selectOption('#theme', 'dark');
  await page.selectOption('#board-colours', 'slate');
  await page.click('#pieces-panel summary');
  await page.selectOption('#piece-set', 'two-kanji');
  const look = () =>
    page.evaluate(() => ({
      theme: document.documentElement.dataset.theme,
      board: document.documentElement.dataset.board,
      pieces: document.documentElement.dataset.pieces,
      paper: getComputedStyle(document.documentElement).getPropertyValue('--paper').trim(),
    }));
  const dark = await look();
  expect(dark).toMatchObject({ theme: 'dark', board: 'slate', pieces: 'two-kanji', paper: '#17130f' });
  await screenshot(page, 'shogi-dark-slate-two-kanji');
  await page.reload();
  await page.waitForFunction(() => !!document.body.dataset.gameId);
  expect(await look(), 'kept by the browser').toEqual(dark);
  // Back to what the other tests expect.
  await page.click('#settings-panel summary');
  await page.selectOption('#theme', 'auto');
  await page.selectOption('#board-colours', 'kaya');
  await page.click('#pieces-panel summary');
  await page.selectOption('#piece-set', 'kanji');
  expect((await look()).paper, 'the light page').not.toBe(dark.paper);
});

test('settings: a move sounds, and mute silences it', async ({ page }) => {
  // A stand-in for Web Audio that counts the sources started.
  await page.addInitScript(() => {
    const started: string[] = [];
    (window as unknown as { soundsStarted: string[] }).soundsStarted = started;
    const param = () => ({ value: 1, setValueAtTime() {}, linearRampToValueAtTime() {}, exponentialRampToValueAtTime() {}, setTargetAtTime() {}, cancelScheduledValues() {} });
    const node = (kind: string) => ({
      kind,
      gain: param(),
      frequency: param(),
      detune: param(),
      Q: param(),
      playbackRate: param(),
      type: '',
      buffer: null,
      connect(target: unknown) {
        return target;
      },
      disconnect() {},
      start() {
        started.push(kind);
      },
      stop() {},
      addEventListener() {},
      set onended(_: unknown) {},
    });
    class SpyContext {
      currentTime = 0;
      sampleRate = 48000;
      state = 'running';
      destination = node('destination');
      createGain = () => node('gain');
      createOscillator = () => node('oscillator');
      createBufferSource = () => node('buffer');
      createBiquadFilter = () => node('filter');
      createDynamicsCompressor = () => ({ ...node('compressor'), threshold: param(), knee: param(), ratio: param(), attack: param(), release: param() });
      createBuffer = (channels: number, length: number) => ({ length, getChannelData: () => new Float32Array(length), numberOfChannels: channels });
      decodeAudioData = () => Promise.reject(new Error('no voice in the spy'));
      resume = () => Promise.resolve();
      close = () => Promise.resolve();
    }
    (window as unknown as { AudioContext: unknown }).AudioContext = SpyContext;
  });
  await page.reload();
  await page.waitForFunction(() => !!document.body.dataset.gameId);
  await newGame(page, 'minishogi');
  await page.click('#settings-panel summary');
  if (await page.isChecked('#sound-muted')) await page.uncheck('#sound-muted');
  const started = () => page.evaluate(() => (window as unknown as { soundsStarted: string[] }).soundsStarted.length);
  await dragMove(page, '1e', '1d');
  await waitBody(page, 'ply', 1);
  await expect.poll(started, { message: 'the move made a sound' }).toBeGreaterThan(0);
  await page.check('#sound-muted');
  const before = await started();
  await dragMove(page, '5a', '5b');
  await waitBody(page, 'ply', 2);
  await page.waitForTimeout(300);
  expect(await started(), 'muted: no sound').toBe(before);
  await page.uncheck('#sound-muted');
});

test('settings: the page has its icon', async ({ page }) => {
  const href = await page.getAttribute('link[rel="icon"]', 'href');
  expect(href, 'an icon is linked').toBe('favicon.svg');
  const answer = await page.request.get(new URL(href!, page.url()).toString());
  expect(answer.status(), 'and served').toBe(200);
  expect(answer.headers()['content-type']).toBe('image/svg+xml');
});

test('settings: the page in Japanese, light and dark', async ({ page }) => {
  await page.selectOption('#language', 'ja');
  try {
    await expect(page.locator('#new-game-button')).toHaveText('新規対局');
    await newGame(page, 'shogi');
    await dragMove(page, '7g', '7f');
    await clickMove(page, '3c', '3d');
    await waitBody(page, 'ply', 2);
    await page.selectOption('#shogi-notation', 'japanese');
    expect(await listTexts(page)).toEqual(['1. ▲７六歩', '2. △３四歩']);
    await screenshot(page, 'shogi-ja');
    await page.click('#settings-panel summary');
    await page.selectOption('#theme', 'dark');
    await screenshot(page, 'shogi-ja-dark');
  } finally {
    await page.selectOption('#theme', 'auto');
    await page.selectOption('#shogi-notation', 'kif');
    await page.selectOption('#language', 'en');
  }
  await expect(page.locator('#new-game-button')).toHaveText('New game');
});
