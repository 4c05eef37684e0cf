// The rules pages: every game the start page offers has its rules in every
// language of the page (docs/rules/<game>.md, docs/rules/ja/<game>.md), the
// build renders them with their links made the page's own, and the page
// loads each once. The addresses the start page and the rules pages use.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pageHref, renderRules, RULES_GAMES, RULES_LANGUAGES, rulesSource } from '../rules.mjs';
import { LANGUAGES } from '../src/i18n';
import { pageRoute, playHref, rulesHref } from '../src/route';
import { RulesPages } from '../src/rules';
import { START_GAMES, startPicture } from '../src/view/start';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const rulesDir = join(repo, 'docs', 'rules');

describe('the rules pages', () => {
  it('exist for every game of the start page in every language of the page', () => {
    const missing: string[] = [];
    for (const [language] of LANGUAGES)
      for (const game of START_GAMES) {
        const source = rulesSource(rulesDir, language, game);
        if (!existsSync(source)) missing.push(source);
      }
    expect(missing).toEqual([]);
    // The build makes a page of each of them.
    expect([...START_GAMES].filter((game) => !RULES_GAMES.includes(game))).toEqual([]);
    expect(LANGUAGES.map(([language]) => language).filter((language) => !RULES_LANGUAGES.includes(language))).toEqual([]);
  });

  it('have the start page’s pictures', () => {
    for (const game of START_GAMES) expect(existsSync(join(rulesDir, startPicture(game).replace(/^rules\//, '')))).toBe(true);
  });

  it('render with a title, their picture, and only links the page can follow', () => {
    for (const language of RULES_LANGUAGES)
      for (const game of RULES_GAMES) {
        const html = renderRules(readFileSync(rulesSource(rulesDir, language, game), 'utf8'));
        expect(html, `${language}/${game}`).toMatch(/^<h1>/);
        expect(html).toContain(`<img src="rules/${game}-start.svg"`);
        for (const [, href] of html.matchAll(/href="([^"]*)"/g)) expect(href, `${language}/${game}`).toMatch(/^#\/rules\/(spear|minishogi|shogi|pawns)$/);
      }
  });

  it('turn links to other rules into the page’s addresses and drop the rest', () => {
    expect(pageHref('shogi.md#the-pieces', 'link')).toBe('#/rules/shogi');
    expect(pageHref('../shogi-start.svg', 'image')).toBe('rules/shogi-start.svg');
    expect(pageHref('../RECORDS.md', 'link')).toBe('');
    expect(renderRules('See [RECORDS.md](../RECORDS.md) and [shogi](shogi.md).')).toBe(
      '<p>See RECORDS.md and <a href="#/rules/shogi">shogi</a>.</p>\n',
    );
  });
});

describe('Japanese rules', () => {
  it('show no space where a line of the source breaks between Japanese words', () => {
    expect(renderRules('先手から\n**指します**。\n対局者は二人。\nKoma plays\nshogi.')).toBe('<p>先手から<strong>指します</strong>。対局者は二人。\nKoma plays\nshogi.</p>\n');
  });
});

describe('the rules pages’ text in the page', () => {
  it('is loaded once, then shown; a failure is said', async () => {
    const asked: string[] = [];
    let changes = 0;
    const pages = new RulesPages(
      (address) => {
        asked.push(address);
        return address.includes('pawns') ? Promise.reject(new Error('404')) : Promise.resolve(`<h1>${address}</h1>`);
      },
      () => changes++,
    );
    expect(pages.text('ja', 'shogi')).toEqual({ status: 'loading' });
    expect(pages.text('ja', 'shogi')).toEqual({ status: 'loading' });
    pages.text('en', 'pawns');
    await new Promise((done) => setTimeout(done, 0));
    expect(asked).toEqual(['rules/ja/shogi.html', 'rules/en/pawns.html']);
    expect(changes).toBe(2);
    expect(pages.text('ja', 'shogi')).toEqual({ status: 'ready', html: '<h1>rules/ja/shogi.html</h1>' });
    expect(pages.text('en', 'pawns')).toEqual({ status: 'failed' });
  });
});

describe('the page’s addresses', () => {
  it('name the start page, a game’s rules, a new game and a game', () => {
    expect(pageRoute('')).toEqual({ page: 'start' });
    expect(pageRoute('#/')).toEqual({ page: 'start' });
    expect(pageRoute('#/nonsense')).toEqual({ page: 'start' });
    expect(pageRoute(rulesHref('minishogi'))).toEqual({ page: 'rules', game: 'minishogi' });
    expect(pageRoute('#/rules/chess')).toEqual({ page: 'start' });
    expect(pageRoute(playHref('pawns'))).toEqual({ page: 'play', game: 'pawns' });
    expect(pageRoute('#/play')).toEqual({ page: 'play' });
    expect(pageRoute('#/game/0123456789abcdef')).toEqual({ page: 'game', game: { id: '0123456789abcdef' } });
    expect(pageRoute(`#/game/0123456789abcdef/gote/${'A'.repeat(32)}`)).toEqual({
      page: 'game',
      game: { id: '0123456789abcdef', seat: { side: 'gote', token: 'a'.repeat(32) } },
    });
  });
});
