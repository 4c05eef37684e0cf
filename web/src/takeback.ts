// Taking a move back in a game between two machines: one player asks (the
// Undo button reads "Ask to take back"), the other accepts or declines. The
// server keeps the request (`takeback` in the state); view/takeback.ts
// shows it, and this says what became of it.

import type { GameState } from './api';
import type { Seating } from './seats';
import { opposite, sideName } from './sides';

/** A sentence to show, by its key in the message files. */
export interface Words {
  key: string;
  params?: Record<string, string | number>;
}

/** What became of a request between two states of a game, as a sentence, if worth saying. */
export function takebackNews(previous: GameState, next: GameState, seating: Seating): Words | undefined {
  const asker = previous.takeback;
  if (previous.mode !== 'shared' || !asker || next.takeback || next.outcome) return undefined;
  const mine = seating.holds(asker) && !seating.sides.some((side) => side !== asker);
  const other = sideName(next.variant, opposite(next.variant, asker), next.handicap);
  if (next.ply < previous.ply) return mine ? { key: 'takeback.accepted', params: { other } } : { key: 'takeback.takenBack' };
  if (next.ply === previous.ply) return mine ? { key: 'takeback.declined', params: { other } } : { key: 'takeback.wasDeclined' };
  return undefined;
}
