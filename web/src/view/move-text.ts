// The text of a move, in one place: the move list, the analysis lines, the
// mate line, the review's notes and the graph all write a move through
// `moveText`, so that a choice of notation is made here.

import type { PlayedMove } from '../api';

/** How Spear's moves are written: the seed's `L FF TT`, or Japanese like the other shogi games. */
export type SpearNotation = 'seed' | 'japanese';

/** The notation choices that apply to a move's text. */
export interface NotationChoice {
  spear: SpearNotation;
}

/** The text of `move` as the player chose to read it (the server's notation, or Spear's seed's). */
export function moveText(move: PlayedMove, choice?: NotationChoice): string {
  return choice?.spear === 'seed' && move.seed ? move.seed : move.notation;
}
