// Taking a move back in a game between two machines: one player asks (the
// Undo button reads "Ask to take back"), the other accepts or declines. The
// server keeps the request (`takeback` in the state); view/takeback.ts
// shows it, and this says what became of it.

import type { GameState } from './api';
import type { Seating } from './seats';
import { opposite, sideName } from './sides';

/** What became of a request between two states of a game, as a sentence, if worth saying. */
export function takebackNews(previous: GameState, next: GameState, seating: Seating): string | undefined {
  const asker = previous.takeback;
  if (previous.mode !== 'shared' || !asker || next.takeback || next.outcome) return undefined;
  const mine = seating.holds(asker) && !seating.sides.some((side) => side !== asker);
  const other = sideName(next.variant, opposite(next.variant, asker), next.handicap);
  if (next.ply < previous.ply) return mine ? `${other} accepted: your move was taken back.` : 'The move was taken back.';
  if (next.ply === previous.ply) return mine ? `${other} declined to take back your move.` : 'The takeback was declined.';
  return undefined;
}
