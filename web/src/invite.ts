// The links of a game between two machines: the seat link the creator sends
// to the other player, the spectator link, and this page's own seat link
// (to open on another device). view/invite.ts shows each with a Copy button.

import type { Color, GameState } from './api';
import type { Seating } from './seats';
import { colorsOf, sideName } from './sides';
import { seatLink, watchLink } from './route';
import { t } from './i18n';

export interface Link {
  kind: 'opponent' | 'watch' | 'own';
  side?: Color;
  label: string;
  url: string;
}

/** The links of a shared game that this page can give: the other player's seat, the spectators', its own. */
export function linksOf(state: GameState, seating: Seating): Link[] {
  const links: Link[] = [];
  const name = (side: Color): string => sideName(state.variant, side, state.handicap);
  for (const side of colorsOf(state.variant)) {
    const token = seating.invited[side];
    if (token && !seating.holds(side))
      links.push({ kind: 'opponent', side, label: t('invite.opponent', { side: name(side) }), url: seatLink(state.id, side, token) });
  }
  links.push({ kind: 'watch', label: t('invite.watch'), url: watchLink(state.id) });
  for (const side of seating.sides) {
    const token = seating.tokens[side];
    if (token) links.push({ kind: 'own', side, label: t('invite.own', { side: name(side) }), url: seatLink(state.id, side, token) });
  }
  return links;
}

