// The rules pages of the page (`#/rules/<game>`), made at build time from
// docs/rules/<game>.md (English) and docs/rules/ja/<game>.md (Japanese) with
// `marked`: build.mjs writes each as an HTML fragment into
// dist/rules/<language>/<game>.html, beside the start positions' pictures
// (dist/rules/*.svg, copied from docs/rules/), and the page fetches the one
// it shows. Nothing is rendered in the browser and nothing leaves the server.

import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Marked } from 'marked';

/** The games with a rules page, and the languages each is written in. */
export const RULES_GAMES = ['spear', 'minishogi', 'shogi', 'pawns'];
export const RULES_LANGUAGES = ['en', 'ja'];

/** Where the Markdown of `game`'s rules in `language` is, under docs/rules/. */
export const rulesSource = (rulesDir, language, game) => (language === 'en' ? join(rulesDir, `${game}.md`) : join(rulesDir, language, `${game}.md`));

/**
 * A link of a rules page as the page can follow it: another game's rules
 * become that page's address, a picture is served from rules/, and a link to
 * the rest of the documentation (not served) is left out, its text kept.
 */
export function pageHref(href, kind) {
  if (/^[a-z]+:/i.test(href) || href.startsWith('#')) return href;
  const file = basename(href.replace(/[#?].*$/, ''));
  if (kind === 'image') return `rules/${file}`;
  const game = file.replace(/\.md$/, '');
  return file.endsWith('.md') && RULES_GAMES.includes(game) ? `#/rules/${game}` : '';
}

/** Japanese (wide) characters: the kana, the kanji, wide punctuation and letters. */
const WIDE = '[\\u3000-\\u30ff\\u3400-\\u9fff\\uff00-\\uffef]';
/**
 * A line break of the source between two Japanese characters (an emphasis
 * or code mark may stand between), which a browser would show as a space
 * where Japanese has none.
 */
const WIDE_BREAK = new RegExp(`(${WIDE}(?:</(?:strong|em|code)>)?)\\n(?=(?:<(?:strong|em|code)>)?${WIDE})`, 'g');

/** The HTML of one rules page's Markdown. */
export function renderRules(markdown) {
  const marked = new Marked({ gfm: true });
  marked.use({
    walkTokens(token) {
      if (token.type === 'link' || token.type === 'image') token.href = pageHref(token.href, token.type);
    },
    renderer: {
      link(token) {
        if (token.href) return false;
        return this.parser.parseInline(token.tokens);
      },
    },
  });
  return marked.parse(markdown, { async: false }).replace(WIDE_BREAK, '$1');
}

/** Writes every rules page and picture into `outDir` (dist/rules); fails on a page missing. */
export async function buildRules(rulesDir, outDir) {
  await mkdir(outDir, { recursive: true });
  for (const name of await readdir(rulesDir)) if (name.endsWith('.svg')) await copyFile(join(rulesDir, name), join(outDir, name));
  for (const language of RULES_LANGUAGES) {
    await mkdir(join(outDir, language), { recursive: true });
    for (const game of RULES_GAMES) {
      const markdown = await readFile(rulesSource(rulesDir, language, game), 'utf8');
      await writeFile(join(outDir, language, `${game}.html`), renderRules(markdown));
    }
  }
}
