// The game shown is named in the address, `#/game/<id>`, so that a reload or
// a bookmark shows the same game. A seat link, `#/game/<id>/<side>/<token>`,
// also hands this page a seat: the page keeps the token and puts the plain
// address back at once, so that the token does not stay in the address bar.

const PATTERN = /^#\/game\/([0-9a-f]{16})(?:\/(sente|gote|white|black)\/([0-9a-fA-F]{32}))?\/?$/;

export interface Route {
  id: string;
  /** The seat a seat link hands over. */
  seat?: { side: string; token: string };
}

export function routeFromUrl(): Route | undefined {
  const match = PATTERN.exec(location.hash);
  if (!match) return undefined;
  const [, id, side, token] = match;
  return side && token ? { id, seat: { side, token: token.toLowerCase() } } : { id };
}

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
