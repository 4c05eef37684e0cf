// The page shown is named in the address, after `#`, so that a reload, a
// bookmark or the browser's Back shows it again: nothing (the start page),
// `#/rules/<game>` (a game's rules), `#/play` or `#/play/<game>` (a new game
// from the new-game form, of that game) and `#/game/<id>` (a game). A seat
// link, `#/game/<id>/<side>/<token>`, also hands this page a seat: the page
// keeps the token and puts the plain address back at once, so that the token
// does not stay in the address bar.

import { isVariantId, type VariantId } from './variants';

const PATTERN = /^#\/game\/([0-9a-f]{16})(?:\/(sente|gote|white|black)\/([0-9a-fA-F]{32}))?\/?$/;

export interface Route {
  id: string;
  /** The seat a seat link hands over. */
  seat?: { side: string; token: string };
}

/** What the address asks the page to show. */
export type PageRoute =
  | { page: 'start' }
  | { page: 'rules'; game: VariantId }
  | { page: 'play'; game?: VariantId }
  | { page: 'game'; game: Route };

/** The page an address's `#…` names; anything else is the start page. */
export function pageRoute(hash: string): PageRoute {
  const match = PATTERN.exec(hash);
  if (match) {
    const [, id, side, token] = match;
    return { page: 'game', game: side && token ? { id, seat: { side, token: token.toLowerCase() } } : { id } };
  }
  const page = /^#\/(rules|play)(?:\/([a-z]+))?\/?$/.exec(hash);
  const game = page?.[2];
  if (page?.[1] === 'rules' && game && isVariantId(game)) return { page: 'rules', game };
  if (page?.[1] === 'play' && !game) return { page: 'play' };
  if (page?.[1] === 'play' && game && isVariantId(game)) return { page: 'play', game };
  return { page: 'start' };
}

export function routeFromUrl(): PageRoute {
  return pageRoute(location.hash);
}

/** The address of the start page, of a game's rules, of a new game of it. */
export const startHref = '#/';
export const rulesHref = (game: VariantId): string => `#/rules/${game}`;
export const playHref = (game: VariantId): string => `#/play/${game}`;

export function putGameIdInUrl(id: string): void {
  const hash = `#/game/${id}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

/** The address of this page without its `#…`. */
function base(): string {
  return location.href.replace(/#.*$/, '');
}

/** The link that shows the game to anyone: a spectator's. */
export function watchLink(id: string): string {
  return `${base()}#/game/${id}`;
}

/** The link that hands over `side`'s seat. */
export function seatLink(id: string, side: string, token: string): string {
  return `${base()}#/game/${id}/${side}/${token}`;
}
