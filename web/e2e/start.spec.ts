// The start page and the rules pages: at `/` with no game the page says what
// Koma is and offers a card for each game (its start position, a line,
// Play and Rules); Play starts that game, the browser's Back and the Koma
// logo come back to the start page, and each game's rules are a page of
// their own in English and Japanese. Pictures for docs/GUI.md.

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { body, pageBase, waitBody } from './helpers';
import { docsShots } from './env';

const GAMES = ['spear', 'minishogi', 'shogi', 'pawns'];

/** The window as it is, for docs/GUI.md (a rules page is far longer than the window). */
async function windowShot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur?.());
  await page.mouse.move(1, 1);
  await page.waitForTimeout(300);
  await mkdir(docsShots, { recursive: true });
  await page.screenshot({ path: join(docsShots, `${name}.png`) });
}

async function openStart(page: Page): Promise<void> {
  await page.goto(pageBase(page));
  await waitBody(page, 'page', 'start');
}

async function setLanguage(page: Page, language: string): Promise<void> {
  await page.selectOption('#language', language);
  await page.waitForFunction((lang) => document.documentElement.lang === lang, language);
}

/** Every card's picture is drawn (the build copied it), and the card names its game. */
async function cardsShown(page: Page): Promise<void> {
  await expect(page.locator('.game-card')).toHaveCount(GAMES.length);
  for (const game of GAMES) {
    const card = page.locator(`.game-card[data-game="${game}"]`);
    await expect(card.locator('h2')).not.toBeEmpty();
    await expect(card.locator('.card-line')).not.toBeEmpty();
    await expect(card.locator('a.play-link')).toHaveAttribute('href', `#/play/${game}`);
    await expect(card.locator('a.rules-link')).toHaveAttribute('href', `#/rules/${game}`);
    await expect
      .poll(() => card.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { message: `${game}'s picture` })
      .toBe(true);
  }
}

/** The form's game and the language the shared browser context remembers, put back after the test. */
async function keepChoices(page: Page): Promise<() => Promise<void>> {
  const kept = await page.evaluate(() => ({ variant: localStorage.getItem('koma.variant'), language: localStorage.getItem('koma.language') }));
  return async () => {
    await page.evaluate((choices) => {
      for (const [key, value] of [['koma.variant', choices.variant], ['koma.language', choices.language]] as const)
        if (value === null) localStorage.removeItem(key);
        else localStorage.setItem(key, value);
    }, kept);
  };
}

test('start page: what Koma is, a card per game, Play, Back and the logo', async ({ page }) => {
  const restore = await keepChoices(page);
  try {
    await setLanguage(page, 'en');
    await openStart(page);
    await expect(page.locator('.intro-lead')).toContainText('Spear Shogi, shogi, minishogi and Pawns-Only Chess');
    await expect(page.locator('#new-game')).toHaveCount(0);
    await cardsShown(page);
    // The first row of cards, Play and Rules included, is in the window.
    for (const game of GAMES) await expect(page.locator(`.game-card[data-game="${game}"] a.play-link`)).toBeInViewport({ ratio: 1 });
    expect(await page.title()).toBe('Koma');
    await windowShot(page, 'start');

    // Play starts a game of that kind at once, with the form's other choices.
    const before = await body(page, 'gameId');
    await page.click('.game-card[data-game="minishogi"] a.play-link');
    await page.waitForFunction((old) => document.body.dataset.gameId !== old && document.body.dataset.variant === 'minishogi', before);
    await waitBody(page, 'page', 'board');
    await waitBody(page, 'ply', 0);
    expect(page.url()).toMatch(/#\/game\/[0-9a-f]{16}$/);
    expect(await page.inputValue('#variant')).toBe('minishogi');
    const game = await body(page, 'gameId');

    // The browser's Back returns to the start page, Forward to the game.
    await page.goBack();
    await waitBody(page, 'page', 'start');
    await expect(page.locator('#back-to-game')).toHaveAttribute('href', `#/game/${game}`);
    await page.goForward();
    await waitBody(page, 'page', 'board');
    await waitBody(page, 'gameId', game);
    await expect(page.locator('sg-board, cg-board')).toHaveCount(1);

    // The Koma logo returns to the start page; the link on it back to the game.
    await page.click('#home');
    await waitBody(page, 'page', 'start');
    await page.click('#back-to-game');
    await waitBody(page, 'page', 'board');
    await waitBody(page, 'gameId', game);

    // In Japanese.
    await openStart(page);
    await setLanguage(page, 'ja');
    await expect(page.locator('.intro-lead')).toContainText('槍将棋');
    await expect(page.locator('.game-card[data-game="shogi"] a.play-link')).toHaveText('対局する');
    await windowShot(page, 'start-ja');
  } finally {
    await restore();
  }
});

test('rules pages: each game in English and Japanese, linked to each other and to Play', async ({ page }) => {
  const restore = await keepChoices(page);
  try {
    await setLanguage(page, 'en');
    await openStart(page);
    await page.click('.game-card[data-game="minishogi"] a.rules-link');
    await waitBody(page, 'rules', 'minishogi');
    await expect(page.locator('#rules-text h1')).toHaveText('Minishogi (5×5)');
    // Its link to shogi's rules is the page's own.
    await page.click('#rules-text a[href="#/rules/shogi"]');
    await waitBody(page, 'rules', 'shogi');
    await expect(page.locator('#rules-text h1')).toHaveText('Shogi (9×9)');
    await expect(page.locator('#rules-text table').first()).toBeVisible();
    await expect
      .poll(() => page.locator('#rules-text img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    expect(await page.title()).toBe('Koma · Rules of Shogi');
    await windowShot(page, 'rules-shogi');

    for (const game of GAMES) {
      await page.click(`.rules-nav a[href="#/rules/${game}"]`);
      await waitBody(page, 'rules', game);
      await expect(page.locator('#rules-text h1')).not.toBeEmpty();
    }

    await setLanguage(page, 'ja');
    await page.click('.rules-nav a[href="#/rules/shogi"]');
    await expect(page.locator('#rules-text h1')).toHaveText('本将棋（9×9）');
    await expect(page.locator('#rules-text')).toContainText('打ち歩詰め');
    await windowShot(page, 'rules-shogi-ja');
    await page.click('.rules-nav a[href="#/rules/spear"]');
    await expect(page.locator('#rules-text h1')).toHaveText('槍将棋（5×5）');

    // Play from a rules page starts that game.
    const before = await body(page, 'gameId');
    await page.click('.rules-nav a.play-link');
    await page.waitForFunction((old) => document.body.dataset.gameId !== old && document.body.dataset.variant === 'spear', before);
    await waitBody(page, 'page', 'board');
    // Back: the rules page again.
    await page.goBack();
    await waitBody(page, 'rules', 'spear');
  } finally {
    await restore();
  }
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('start page: the top bar first, the cards two by two', async ({ page }) => {
    const restore = await keepChoices(page);
    try {
      await setLanguage(page, 'en');
      await openStart(page);
      await cardsShown(page);
      await expect(page.locator('header.top')).toBeInViewport({ ratio: 1 });
      for (const game of ['spear', 'minishogi']) await expect(page.locator(`.game-card[data-game="${game}"] a.play-link`)).toBeInViewport({ ratio: 1 });
      const [spear, minishogi] = await Promise.all(['spear', 'minishogi'].map((game) => page.locator(`.game-card[data-game="${game}"]`).boundingBox()));
      expect(Math.abs(spear!.y - minishogi!.y), 'two cards side by side').toBeLessThan(2);
      await windowShot(page, 'start-phone');
      await setLanguage(page, 'ja');
      await windowShot(page, 'start-phone-ja');
    } finally {
      await restore();
    }
  });
});
