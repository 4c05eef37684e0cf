// The rules pages' text: each game's rules in each language, an HTML fragment
// that the build made from docs/rules/ (web/rules.mjs) and that the page asks
// its server for once, when it is first shown.

import type { Language } from './i18n';
import type { VariantId } from './variants';

/** One page's text as far as it has come: on its way, here, or failed. */
export type RulesText = { status: 'loading' } | { status: 'ready'; html: string } | { status: 'failed' };

/** Where the server has `game`'s rules in `language`. */
export const rulesAddress = (language: Language, game: VariantId): string => `rules/${language}/${game}.html`;

export class RulesPages {
  private readonly texts = new Map<string, RulesText>();

  constructor(
    /** Fetches a text from the page's server (the browser's `fetch`; a fake in the unit tests). */
    private readonly load: (address: string) => Promise<string>,
    /** Told when a page's text arrives or fails. */
    private readonly changed: () => void,
  ) {}

  /** `game`'s rules in `language`, asked for the first time they are wanted. */
  text(language: Language, game: VariantId): RulesText {
    const address = rulesAddress(language, game);
    const known = this.texts.get(address);
    if (known) return known;
    this.texts.set(address, { status: 'loading' });
    this.load(address).then(
      (html) => this.texts.set(address, { status: 'ready', html }),
      () => this.texts.set(address, { status: 'failed' }),
    ).finally(() => this.changed());
    return { status: 'loading' };
  }
}

/** The browser's way of loading a rules page: a failed answer is a failure. */
export async function fetchText(address: string): Promise<string> {
  const response = await fetch(address);
  if (!response.ok) throw new Error(`${address}: ${response.status}`);
  return response.text();
}
