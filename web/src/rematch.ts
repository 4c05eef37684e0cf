// Rematch after a game ends, as lishogi offers it. At one screen (two
// people, or one against the computer) the result box's Rematch starts the
// same game with the colours swapped at once. Between two machines one
// player offers, the other accepts or declines, and the offerer may cancel:
// the server keeps the offer (`rematch` in the finished game's state, which
// every page receives), and once the new game is made each player's page
// asks for its own seat in it and moves there. This says which of these
// the result box shows this page.

import type { GameState } from './api';
import type { Seating } from './seats';

/**
 * What the result box offers about a rematch:
 * - `ask`: the Rematch button;
 * - `offered`: this page's offer waits ("Rematch offered", Cancel);
 * - `answer`: the other player offers (Accept, Decline);
 * - `starting`: the new game is made and this page is moving to it;
 * - `watch`: a spectator may follow the players to the new game;
 * - `none`: nothing (the game goes on, or a spectator before a rematch).
 */
export type RematchPrompt = 'ask' | 'offered' | 'answer' | 'starting' | 'watch' | 'none';

/** What the result box offers this page about a rematch of `state`. */
export function rematchPrompt(state: GameState, seating: Seating): RematchPrompt {
  if (!state.outcome) return 'none';
  const rematch = state.rematch;
  if (seating.watching) return rematch?.game ? 'watch' : 'none';
  if (rematch?.game) return 'starting';
  if (state.mode !== 'shared') return 'ask';
  const offerer = rematch?.offeredBy;
  if (!offerer) return 'ask';
  return seating.holds(offerer) ? 'offered' : 'answer';
}

/**
 * What the other player did about a rematch between two states of a game,
 * by its key in the message files (`rematch.*`): an offer, a decline or a
 * cancel that this page did not make. Shown in the result box, which opens
 * for it.
 */
export function rematchNews(previous: GameState | undefined, next: GameState, seating: Seating): string | undefined {
  if (next.mode !== 'shared' || !next.outcome || seating.watching) return undefined;
  const before = previous?.rematch;
  const now = next.rematch;
  if (!now || now.game) return undefined;
  if (now.offeredBy && now.offeredBy !== before?.offeredBy && !seating.holds(now.offeredBy)) return 'rematch.offeredToYou';
  const dropped = now.declinedBy && before?.offeredBy && !now.offeredBy;
  if (dropped && !seating.holds(now.declinedBy!)) return now.cancelled ? 'rematch.cancelled' : 'rematch.declined';
  return undefined;
}
